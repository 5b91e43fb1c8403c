package rules_test

import (
	"errors"
	"testing"

	"github.com/anychess/anychess/rules"
)

// faceOf is a Face as a catalog would attach one: a value the rules do
// not know.
type faceOf struct{ name string }

// TestFace: a Variant carries the Spec's Face, WithFace returns a copy
// that plays the same with another Face, and Configure carries the Face
// over unless the configured variant declares its own.
func TestFace(t *testing.T) {
	base := chessSpec(t)
	a, b := &faceOf{"a"}, &faceOf{"b"}

	s := base
	s.Face = a
	v := compile(t, s)
	if v.Face() != a {
		t.Fatalf("Face = %v, want the Spec's", v.Face())
	}
	if got := compile(t, base).Face(); got != nil {
		t.Errorf("Face of a Spec without one = %v, want nil", got)
	}

	w := v.WithFace(b)
	if w.Face() != b || v.Face() != a {
		t.Errorf("WithFace: copy's Face %v, original's %v; want b and a", w.Face(), v.Face())
	}
	if w == v {
		t.Error("WithFace returned the receiver")
	}
	if w.Start().Variant() != w {
		t.Error("a position of the copy points to another variant")
	}
	if w.Name() != v.Name() || w.StartFEN() != v.StartFEN() {
		t.Errorf("copy is %s %s, want %s %s", w.Name(), w.StartFEN(), v.Name(), v.StartFEN())
	}
	if got, want := rules.Perft(w.Start(), 3), rules.Perft(v.Start(), 3); got != want {
		t.Errorf("perft(3) of the copy = %d, want %d", got, want)
	}

	// A variant without options configures to itself.
	if c, err := v.Configure(map[string]string{"X": "1"}); err != nil || c != v {
		t.Errorf("Configure without options = %p, %v; want the receiver", c, err)
	}

	own := &faceOf{"own"}
	for _, tt := range []struct {
		name string
		face any // the Face of the Spec the options build
		want any
	}{
		{"carried over", nil, a},
		{"carried over from a copy", nil, b},
		{"its own", own, own},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := base
			s.Face = a
			s.Ext = optionFuncs{configure: func(map[string]string) (*rules.Variant, error) {
				c := base
				c.Name = "configured"
				c.Face = tt.face
				return rules.Compile(c)
			}}
			recv := compile(t, s)
			if tt.want == b {
				recv = recv.WithFace(b)
			}
			c, err := recv.Configure(nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.Name() != "configured" || c.Face() != tt.want {
				t.Errorf("Configure = %s with Face %v, want configured with %v", c.Name(), c.Face(), tt.want)
			}
			if c.Start().Variant() != c {
				t.Error("a position of the configured variant points to another variant")
			}
		})
	}

	// A Configure that fails, or builds nothing, is an error.
	s = base
	s.Face = a
	bad := errors.New("bad option")
	s.Ext = optionFuncs{configure: func(map[string]string) (*rules.Variant, error) { return nil, bad }}
	if _, err := compile(t, s).Configure(nil); !errors.Is(err, bad) {
		t.Errorf("failing Configure: err = %v, want %v", err, bad)
	}
	s.Ext = optionFuncs{configure: func(map[string]string) (*rules.Variant, error) { return nil, nil }}
	if c, err := compile(t, s).Configure(nil); err == nil {
		t.Errorf("Configure building nothing = %v, nil; want an error", c)
	}
}
