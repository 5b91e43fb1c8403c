package rules_test

import (
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// The tests build variants from functions, the way the variant packages
// give methods: each type below turns functions into one optional
// interface of rules, and a struct embedding some of them is an Ext with
// exactly those.

type outcomesFunc func(p *rules.Position, m rules.Move) []rules.Outcome

func (f outcomesFunc) Outcomes(p *rules.Position, m rules.Move) []rules.Outcome { return f(p, m) }

// afterFuncs is an AfterMover; a nil function does nothing.
type afterFuncs struct {
	make, unmake func(p *rules.Position, m rules.Move, outcome int)
}

func (f afterFuncs) AfterMake(p *rules.Position, m rules.Move, outcome int) {
	if f.make != nil {
		f.make(p, m, outcome)
	}
}

func (f afterFuncs) AfterUnmake(p *rules.Position, m rules.Move, outcome int) {
	if f.unmake != nil {
		f.unmake(p, m, outcome)
	}
}

type viewFunc func(p *rules.Position, c rules.Color) rules.View

func (f viewFunc) View(p *rules.Position, c rules.Color) rules.View { return f(p, c) }

// checkFuncs is a Checker.
type checkFuncs struct {
	inCheck func(p *rules.Position) bool
	checked func(p *rules.Position, dst []geom.Square) []geom.Square
}

func (f checkFuncs) InCheck(p *rules.Position) bool { return f.inCheck(p) }
func (f checkFuncs) Checked(p *rules.Position, dst []geom.Square) []geom.Square {
	return f.checked(p, dst)
}

// tacticalFunc is an Engine whose Eval adds nothing.
type tacticalFunc func(p *rules.Position, m rules.Move) (int, bool)

func (f tacticalFunc) Tactical(p *rules.Position, m rules.Move) (int, bool) { return f(p, m) }
func (tacticalFunc) Eval(*rules.Position) int                               { return 0 }

type unlistedFunc func(p *rules.Position, m rules.Move) bool

func (f unlistedFunc) Unlisted(p *rules.Position, m rules.Move) bool { return f(p, m) }

type moderateFunc func(p, view *rules.Position, m rules.Move) (rules.Move, error)

func (f moderateFunc) Moderate(p, view *rules.Position, m rules.Move) (rules.Move, error) {
	return f(p, view, m)
}

// optionFuncs is a Configurable whose AllOptions are its Options.
type optionFuncs struct {
	options   func() []rules.Option
	configure func(tags map[string]string) (*rules.Variant, error)
}

func (f optionFuncs) Options() []rules.Option {
	if f.options == nil {
		return nil
	}
	return f.options()
}
func (f optionFuncs) AllOptions() []rules.Option { return f.Options() }
func (f optionFuncs) Configure(tags map[string]string) (*rules.Variant, error) {
	return f.configure(tags)
}
