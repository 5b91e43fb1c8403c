// Package catalog assembles every variant the system plays: the data
// variants of package variant (chess, Great Shatranj, Chatrang and the
// classic families from shatranj to shogi) and the
// variants with rules objects of their own (Chess960, Vazir, Crazy Chess,
// csipgs Chess). It is the one registry: commands, protocols and the
// server take theirs from here; packages below it (rules, variant,
// notation) only see the registry they are given.
package catalog

import (
	"fmt"

	"github.com/anychess/anychess/variant"
	"github.com/anychess/anychess/variant/chess960"
	"github.com/anychess/anychess/variant/crazy"
	"github.com/anychess/anychess/variant/csipgs"
	"github.com/anychess/anychess/variant/csipgs/ai"
	"github.com/anychess/anychess/variant/vazir"
)

// Default returns a registry with every variant, each with its default
// options (a game sets its own with rules.Variant.Configure). It fails only
// if an embedded file is broken, which the tests rule out.
func Default() (*variant.Registry, error) {
	reg := variant.NewRegistry()
	if err := variant.AddBuiltins(reg); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	c960, err := chess960.New()
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	if err := reg.Register(c960, nil); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	vz, err := vazir.New(vazir.DefaultOptions())
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	vz = vz.WithFace(vazir.Face{})
	if err := reg.Register(vz, nil); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	cc, err := crazy.New(crazy.DefaultOptions())
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	cc = cc.WithFace(crazy.Face{})
	if err := reg.Register(cc, nil); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	cs, err := csipgs.New(csipgs.DefaultOptions())
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	cs = cs.WithFace(ai.Face{})
	if err := reg.Register(cs, nil); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	return reg, nil
}

// MustDefault is Default for callers that cannot go on without the
// built-in variants; it panics only on a broken binary.
func MustDefault() *variant.Registry {
	r, err := Default()
	if err != nil {
		panic(err)
	}
	return r
}
