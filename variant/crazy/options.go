package crazy

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ErrOption is wrapped by every error about an option or an option tag.
var ErrOption = errors.New("crazy: bad option")

// DenialMode says which moves may be denied (CC-11).
type DenialMode uint8

// The denial modes.
const (
	Hard      DenialMode = iota // every move may be denied (the seed's rule)
	Soft                        // a king move, castling included, can never be denied
	DenialOff                   // no denial at all
)

// KnightPath says which squares a knight passes (CC-21).
type KnightPath uint8

// The knight paths.
const (
	PathL   KnightPath = iota // the two L-routes, two intermediate squares each
	PathMao                   // the two W+F routes, one intermediate square each
)

// StackExit says which passengers may leave a stack (CC-15).
type StackExit uint8

// The stack exits.
const (
	AnyPassenger StackExit = iota // every passenger may move
	TopOnly                       // only the top passenger may move
)

// Step1Immunity says whether a king is safe during the first of its two
// steps (CC-20).
type Step1Immunity uint8

// The step-1 immunities.
const (
	Hover      Step1Immunity = iota // the king cannot be captured; units falling or rising onto it wait
	NoImmunity                      // effects hit the king at once
)

// OffTurnPromotion says how an opponent's pawn promotes at the end of the
// mover's turn (CC-41).
type OffTurnPromotion uint8

// The off-turn promotions.
const (
	// AutoQueen: the pawn becomes a queen at once.
	AutoQueen OffTurnPromotion = iota
	// OwnerChoosesNextTurn: the pawn stays a pawn and promotes at the end
	// of its owner's next turn, as the owner's own pawn, by the owner's
	// choice (if it is still on the last row outside a stack then).
	OwnerChoosesNextTurn
)

// SelfDestruct says what a move that removes the mover's own king is
// (CC-45).
type SelfDestruct uint8

// The self-destruction rules.
const (
	LegalLoses  SelfDestruct = iota // the move is legal and loses at once
	IllegalMove                     // the move is not generated
)

// Insufficient says which material is a dead draw (CC-47).
type Insufficient uint8

// The insufficient-material rules.
const (
	KvKOnly Insufficient = iota // only king against king
	FIDE                        // also K+N or K+B against K, and bishops all on one colour
)

// KnightDenial says whether a Knight move without a path capture may be
// denied (CC-7, A10).
type KnightDenial uint8

// The knight denials.
const (
	// KnightImmune: such a move cannot be denied; DENY is not legal after
	// it, the right stays where it is and no denial is counted.
	KnightImmune KnightDenial = iota
	// KnightReplayable: the move may be denied, and the replacement may be
	// the same move (along the other path).
	KnightReplayable
)

// Options are the switches the specification names; the zero value is not
// the default rule set (three booleans default to true): start from
// DefaultOptions.
type Options struct {
	Denial                     DenialMode
	DenialDrawRule             bool // CC-12: after the third denial the holder may claim a draw
	DenyLastMoveAllowed        bool // CC-10: a player's only legal move may be denied
	StackExit                  StackExit
	CastleLandingMayBeAttacked bool // CC-18
	KingStep1Immunity          Step1Immunity
	AllRoundHitsPassengers     bool // CC-20b: the all-round capture takes whole stacks
	AllRoundRequiresVictim     bool // CC-20b: an all-round capture needs a piece next to the queen
	KnightPath                 KnightPath
	KnightDenial               KnightDenial
	OffTurnPromotion           OffTurnPromotion
	SelfDestruct               SelfDestruct
	InsufficientMaterial       Insufficient
	// Bait is the 2013 special move (section 2.1, A15). Its rule is not
	// known in full, so only false is accepted.
	Bait bool
}

// DefaultOptions returns the default rule set of the specification.
func DefaultOptions() Options {
	return Options{
		DenyLastMoveAllowed:        true,
		CastleLandingMayBeAttacked: true,
		AllRoundRequiresVictim:     true,
	}
}

// errBait is the error of the Bait option.
var errBait = fmt.Errorf("%w: Bait is not supported (its 2013 rule is not known in full)", ErrOption)

// check reports an option value out of range.
func (o Options) check() error {
	for _, e := range enumOptions() {
		if v := e.get(&o); int(v) >= len(e.names) {
			return fmt.Errorf("%w: %s %d", ErrOption, e.tag, v)
		}
	}
	if o.Bait {
		return errBait
	}
	return nil
}

// enumOption is an option whose tag value is one of a list of names.
type enumOption struct {
	tag   string
	names []string
	get   func(o *Options) uint8
	set   func(o *Options, v uint8)
}

// boolOption is an option whose tag value is true or false.
type boolOption struct {
	tag string
	ptr func(o *Options) *bool
}

// enumOptions and boolOptions list the option tags in the order Tags
// writes them. Denial comes first: the specification writes it always.
func enumOptions() []enumOption {
	return []enumOption{
		{"Denial", []string{"Hard", "Soft", "Off"},
			func(o *Options) uint8 { return uint8(o.Denial) }, func(o *Options, v uint8) { o.Denial = DenialMode(v) }},
		{"StackExit", []string{"AnyPassenger", "TopOnly"},
			func(o *Options) uint8 { return uint8(o.StackExit) }, func(o *Options, v uint8) { o.StackExit = StackExit(v) }},
		{"KingStep1Immunity", []string{"Hover", "None"},
			func(o *Options) uint8 { return uint8(o.KingStep1Immunity) }, func(o *Options, v uint8) { o.KingStep1Immunity = Step1Immunity(v) }},
		{"KnightPath", []string{"L", "Mao"},
			func(o *Options) uint8 { return uint8(o.KnightPath) }, func(o *Options, v uint8) { o.KnightPath = KnightPath(v) }},
		{"KnightDenial", []string{"Immune", "Replayable"},
			func(o *Options) uint8 { return uint8(o.KnightDenial) }, func(o *Options, v uint8) { o.KnightDenial = KnightDenial(v) }},
		{"OffTurnPromotion", []string{"AutoQueen", "OwnerChoosesNextTurn"},
			func(o *Options) uint8 { return uint8(o.OffTurnPromotion) }, func(o *Options, v uint8) { o.OffTurnPromotion = OffTurnPromotion(v) }},
		{"SelfDestruct", []string{"LegalLoses", "Illegal"},
			func(o *Options) uint8 { return uint8(o.SelfDestruct) }, func(o *Options, v uint8) { o.SelfDestruct = SelfDestruct(v) }},
		{"InsufficientMaterial", []string{"KvKOnly", "FIDE"},
			func(o *Options) uint8 { return uint8(o.InsufficientMaterial) }, func(o *Options, v uint8) { o.InsufficientMaterial = Insufficient(v) }},
	}
}

func boolOptions() []boolOption {
	return []boolOption{
		{"DenialDrawRule", func(o *Options) *bool { return &o.DenialDrawRule }},
		{"DenyLastMoveAllowed", func(o *Options) *bool { return &o.DenyLastMoveAllowed }},
		{"CastleLandingMayBeAttacked", func(o *Options) *bool { return &o.CastleLandingMayBeAttacked }},
		{"AllRoundHitsPassengers", func(o *Options) *bool { return &o.AllRoundHitsPassengers }},
		{"AllRoundRequiresVictim", func(o *Options) *bool { return &o.AllRoundRequiresVictim }},
		{"Bait", func(o *Options) *bool { return &o.Bait }},
	}
}

// Tags returns the options as game-record tags (section 2.11): Denial
// always, then one tag for every option that differs from the default.
func (o Options) Tags() [][2]string {
	def := DefaultOptions().AllTags()
	var tags [][2]string
	for i, t := range o.AllTags() {
		if i == 0 || t != def[i] {
			tags = append(tags, t)
		}
	}
	return tags
}

// AllTags returns every option as a tag, in the order Tags writes them,
// defaults included.
func (o Options) AllTags() [][2]string {
	var tags [][2]string
	for _, e := range enumOptions() {
		v := e.get(&o)
		name := fmt.Sprint(v)
		if int(v) < len(e.names) {
			name = e.names[v]
		}
		tags = append(tags, [2]string{e.tag, name})
	}
	for _, b := range boolOptions() {
		tags = append(tags, [2]string{b.tag, fmt.Sprint(*b.ptr(&o))})
	}
	return tags
}

// SetTag sets the option named by a tag and reports whether name is an
// option tag; an option tag with a bad value is an error wrapping
// ErrOption. Values are matched without regard to case; booleans are true,
// false, 1 or 0.
func (o *Options) SetTag(name, value string) (bool, error) {
	for _, e := range enumOptions() {
		if e.tag != name {
			continue
		}
		for i, n := range e.names {
			if strings.EqualFold(n, value) {
				e.set(o, uint8(i))
				return true, nil
			}
		}
		return true, fmt.Errorf("%w: %s %q (want %s)", ErrOption, name, value, strings.Join(e.names, ", "))
	}
	for _, b := range boolOptions() {
		if b.tag != name {
			continue
		}
		switch strings.ToLower(value) {
		case "true", "1":
			*b.ptr(o) = true
		case "false", "0":
			*b.ptr(o) = false
		default:
			return true, fmt.Errorf("%w: %s %q (want true or false)", ErrOption, name, value)
		}
		if o.Bait {
			return true, errBait
		}
		return true, nil
	}
	return false, nil
}

// OptionsFromTags returns DefaultOptions changed by the option tags among
// tags; other tags are ignored.
func OptionsFromTags(tags map[string]string) (Options, error) {
	o := DefaultOptions()
	return o, o.setTags(tags)
}

// setTags sets the options among tags, in the order of their names so that
// the first bad one reported is always the same.
func (o *Options) setTags(tags map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		if _, err := o.SetTag(k, tags[k]); err != nil {
			return err
		}
	}
	return nil
}
