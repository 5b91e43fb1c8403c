package vazir

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrOption is wrapped by every error about an option or a PGN tag value.
var ErrOption = errors.New("vazir: bad option")

// DefaultMPT is the default number of capture tries per turn (VZ-10).
const DefaultMPT = 3

// RankInit says how the initial ranks are set (VZ-3). Fixed(k) is a value
// of this type too.
type RankInit int

// The ways to set initial ranks (VZ-3).
const (
	// RandomMirrored gives each white piece an independent uniform rank and
	// each black piece the rank of the white piece on the mirrored square.
	RandomMirrored RankInit = iota
	// RandomIndependent gives every piece an independent uniform rank.
	RandomIndependent
	// FromFEN takes the ranks from the RFEN.
	FromFEN
	fixed0 // Fixed(k) is fixed0 + k
)

// Fixed returns the RankInit that gives every piece rank k (0..9).
func Fixed(k int) RankInit { return fixed0 + RankInit(k) }

// IsFixed reports whether ri is Fixed(k) and returns k.
func (ri RankInit) IsFixed() (int, bool) {
	if ri >= fixed0 {
		return int(ri - fixed0), true
	}
	return 0, false
}

// String returns the PGN tag value: "RandomMirrored", "RandomIndependent",
// "FromFEN" or "Fixed(k)".
func (ri RankInit) String() string {
	switch ri {
	case RandomMirrored:
		return "RandomMirrored"
	case RandomIndependent:
		return "RandomIndependent"
	case FromFEN:
		return "FromFEN"
	}
	if k, ok := ri.IsFixed(); ok {
		return fmt.Sprintf("Fixed(%d)", k)
	}
	return fmt.Sprintf("RankInit(%d)", int(ri))
}

// ParseRankInit reads a RankInit as String writes it.
func ParseRankInit(s string) (RankInit, error) {
	switch s {
	case "RandomMirrored":
		return RandomMirrored, nil
	case "RandomIndependent":
		return RandomIndependent, nil
	case "FromFEN":
		return FromFEN, nil
	}
	if rest, ok := strings.CutPrefix(s, "Fixed("); ok {
		if num, ok := strings.CutSuffix(rest, ")"); ok {
			if k, err := strconv.Atoi(num); err == nil && k >= 0 && k <= MaxRank {
				return Fixed(k), nil
			}
		}
	}
	return 0, fmt.Errorf("%w: RankInit %q (want RandomMirrored, RandomIndependent, FromFEN or Fixed(0..9))", ErrOption, s)
}

// HundredPercentScope says which moves VZ-14 looks at.
type HundredPercentScope int

// The scopes of the 100% rule (VZ-14).
const (
	// KingMovesOnly: every legal king move captures a checking piece.
	KingMovesOnly HundredPercentScope = iota
	// NoOtherEvasion: every legal move is a king capture of a checking piece.
	NoOtherEvasion
)

// String returns the PGN tag value.
func (s HundredPercentScope) String() string {
	switch s {
	case KingMovesOnly:
		return "KingMovesOnly"
	case NoOtherEvasion:
		return "NoOtherEvasion"
	}
	return fmt.Sprintf("HundredPercentScope(%d)", int(s))
}

// ParseHundredPercentScope reads a HundredPercentScope as String writes it.
func ParseHundredPercentScope(s string) (HundredPercentScope, error) {
	switch s {
	case "KingMovesOnly":
		return KingMovesOnly, nil
	case "NoOtherEvasion":
		return NoOtherEvasion, nil
	}
	return 0, fmt.Errorf("%w: HundredPercentScope %q (want KingMovesOnly or NoOtherEvasion)", ErrOption, s)
}

// ExtraMoveScope says which moves the VZ-15b extra move may be.
type ExtraMoveScope int

// The scopes of the extra move (VZ-15).
const (
	// KingOnly: the extra move is a king move (the literal reading).
	KingOnly ExtraMoveScope = iota
	// AnyEvasion: the extra move is any legal move.
	AnyEvasion
)

// String returns the PGN tag value.
func (s ExtraMoveScope) String() string {
	switch s {
	case KingOnly:
		return "KingOnly"
	case AnyEvasion:
		return "AnyEvasion"
	}
	return fmt.Sprintf("ExtraMoveScope(%d)", int(s))
}

// ParseExtraMoveScope reads an ExtraMoveScope as String writes it.
func ParseExtraMoveScope(s string) (ExtraMoveScope, error) {
	switch s {
	case "KingOnly":
		return KingOnly, nil
	case "AnyEvasion":
		return AnyEvasion, nil
	}
	return 0, fmt.Errorf("%w: ExtraMoveScope %q (want KingOnly or AnyEvasion)", ErrOption, s)
}

// Rounding is the rounding of w/2 in the promotion rank (VZ-20).
type Rounding int

// The roundings of VZ-20.
const (
	// HalfAwayFromZero: Q -> r-5, R -> r-3, B/N -> r-2 (Go's math.Round).
	HalfAwayFromZero Rounding = iota
	// HalfEven: Q -> r-4, R -> r-2, B/N -> r-2 (math.RoundToEven).
	HalfEven
)

// String returns the PGN tag value.
func (r Rounding) String() string {
	switch r {
	case HalfAwayFromZero:
		return "HalfAwayFromZero"
	case HalfEven:
		return "HalfEven"
	}
	return fmt.Sprintf("Rounding(%d)", int(r))
}

// ParseRounding reads a Rounding as String writes it.
func ParseRounding(s string) (Rounding, error) {
	switch s {
	case "HalfAwayFromZero":
		return HalfAwayFromZero, nil
	case "HalfEven":
		return HalfEven, nil
	}
	return 0, fmt.Errorf("%w: PromotionRounding %q (want HalfAwayFromZero or HalfEven)", ErrOption, s)
}

// Options are the switches the specification names. The zero value is not
// the default rule set (two booleans default to true): start from
// DefaultOptions.
type Options struct {
	MPT                      int // capture tries per turn, >= 1 (VZ-10); 0 means DefaultMPT
	RankInit                 RankInit
	QuietAfterFail           bool // a quiet move may follow a failed try (VZ-11)
	SameTargetOnly           bool // later tries must capture on the square of the first failed try (VZ-11)
	HundredPercentScope      HundredPercentScope
	ExtraMoveScope           ExtraMoveScope
	ExtraMoveCapturesCertain bool // a capture in the VZ-15b extra move succeeds surely
	PromotionRounding        Rounding
}

// DefaultOptions returns the default rule set of the specification.
func DefaultOptions() Options {
	return Options{
		MPT:                      DefaultMPT,
		RankInit:                 RandomMirrored,
		QuietAfterFail:           true,
		ExtraMoveCapturesCertain: true,
	}
}

// MaxMPT is the largest MPT accepted (the try counter is a byte).
const MaxMPT = 200

// normalize fills the default MPT and checks the values.
func (o Options) normalize() (Options, error) {
	if o.MPT == 0 {
		o.MPT = DefaultMPT
	}
	if o.MPT < 1 || o.MPT > MaxMPT {
		return o, fmt.Errorf("%w: MPT %d (want 1..%d)", ErrOption, o.MPT, MaxMPT)
	}
	if k, ok := o.RankInit.IsFixed(); (ok && k > MaxRank) || o.RankInit < 0 {
		return o, fmt.Errorf("%w: RankInit %v", ErrOption, o.RankInit)
	}
	if o.HundredPercentScope != KingMovesOnly && o.HundredPercentScope != NoOtherEvasion {
		return o, fmt.Errorf("%w: %v", ErrOption, o.HundredPercentScope)
	}
	if o.ExtraMoveScope != KingOnly && o.ExtraMoveScope != AnyEvasion {
		return o, fmt.Errorf("%w: %v", ErrOption, o.ExtraMoveScope)
	}
	if o.PromotionRounding != HalfAwayFromZero && o.PromotionRounding != HalfEven {
		return o, fmt.Errorf("%w: %v", ErrOption, o.PromotionRounding)
	}
	return o, nil
}

func boolTag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func parseBoolTag(name, v string) (bool, error) {
	switch v {
	case "1", "true", "True":
		return true, nil
	case "0", "false", "False":
		return false, nil
	}
	return false, fmt.Errorf("%w: %s %q (want 1 or 0)", ErrOption, name, v)
}

// Tags returns the options as R-PGN tag pairs (section 1.9), MPT first.
func (o Options) Tags() [][2]string {
	mpt := o.MPT
	if mpt == 0 {
		mpt = DefaultMPT
	}
	return [][2]string{
		{"MPT", strconv.Itoa(mpt)},
		{"RankInit", o.RankInit.String()},
		{"PromotionRounding", o.PromotionRounding.String()},
		{"QuietAfterFail", boolTag(o.QuietAfterFail)},
		{"SameTargetOnly", boolTag(o.SameTargetOnly)},
		{"HundredPercentScope", o.HundredPercentScope.String()},
		{"ExtraMoveScope", o.ExtraMoveScope.String()},
		{"ExtraMoveCapturesCertain", boolTag(o.ExtraMoveCapturesCertain)},
	}
}

// SetTag sets the option named by an R-PGN tag. It reports whether name is
// an option tag; an option tag with a bad value is an error wrapping
// ErrOption.
func (o *Options) SetTag(name, value string) (bool, error) {
	var err error
	switch name {
	case "MPT":
		n, e := strconv.Atoi(value)
		if e != nil || n < 1 || n > MaxMPT {
			return true, fmt.Errorf("%w: MPT %q (want 1..%d)", ErrOption, value, MaxMPT)
		}
		o.MPT = n
	case "RankInit":
		o.RankInit, err = ParseRankInit(value)
	case "PromotionRounding":
		o.PromotionRounding, err = ParseRounding(value)
	case "QuietAfterFail":
		o.QuietAfterFail, err = parseBoolTag(name, value)
	case "SameTargetOnly":
		o.SameTargetOnly, err = parseBoolTag(name, value)
	case "HundredPercentScope":
		o.HundredPercentScope, err = ParseHundredPercentScope(value)
	case "ExtraMoveScope":
		o.ExtraMoveScope, err = ParseExtraMoveScope(value)
	case "ExtraMoveCapturesCertain":
		o.ExtraMoveCapturesCertain, err = parseBoolTag(name, value)
	default:
		return false, nil
	}
	return true, err
}

// OptionsFromTags returns DefaultOptions changed by the option tags among
// tags; other tags are ignored.
func OptionsFromTags(tags map[string]string) (Options, error) {
	o := DefaultOptions()
	for k, v := range tags {
		if _, err := o.SetTag(k, v); err != nil {
			return o, err
		}
	}
	return o, nil
}
