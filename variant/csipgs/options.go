package csipgs

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/anychess/anychess/geom"
)

// ErrOption is wrapped by every error about an option or its tag value.
var ErrOption = errors.New("csipgs: bad option")

// Options are the per-game rule options of csipgs Chess. A game record
// keeps them as tags (Tags, and the variant's Options hook).
type Options struct {
	// Relay allows relay- designs (3.7 A-g): a friendly piece defended by
	// a relay piece may also move with the relay piece's powers. Tag Relay.
	Relay bool
	// Moderated is the hidden-information mode (CS-M1..CS-M5): views,
	// royal capture, hidden terrain. Tag Moderated.
	Moderated bool
	// RoyalCapture plays with royal capture instead of check (CS-14)
	// without moderation; Moderated implies it. Tag RoyalCapture.
	RoyalCapture bool
	// ReserveRoyalsCount counts royals in reserve towards "two or more
	// royals" (CS-10, A-e). Tag ReserveRoyalsCount.
	ReserveRoyalsCount bool
	// MaxTurns ends the game in a draw after this many moves of each side
	// (CS-15); 0: no cap. Tag MaxTurns.
	MaxTurns int
	// FiftyMoveResetDesigns lists the designs whose moves reset the
	// 50-move counter (A-h); nil means the FIDE pawn fmWfcF. Tag
	// FiftyMoveResetDesigns (comma-separated, "-" for none).
	FiftyMoveResetDesigns []string
	// NoFiftyMoveRule switches the 50-move rule off. Tag FiftyMoveRule.
	NoFiftyMoveRule bool
	// GForwardHalf prices f on G at 0.5 (A-a). Tag GForwardMultiplier
	// ("0.7" or "0.5").
	GForwardHalf bool
	// NoNarrowWideOnNightrider forbids narrow and wide on NN (A-c). Tag
	// NarrowWideOnNightrider.
	NoNarrowWideOnNightrider bool
	// HideEconomy hides the opponent's treasury and reserve in moderated
	// views (CS-M4). Tag HideEconomy.
	HideEconomy bool
	// Files and Ranks are the board size (CS-M3 MapSize); 0 means 8.
	// Tag MapSize ("8x8", "16x16", or "2x2" sub-boards of 8x8 as "2x2b").
	Files, Ranks int
	// Terrain lists impassable squares (CS-M3). Tag Terrain
	// (comma-separated square names, "-" for none).
	Terrain []geom.Square
	// Radius is the visibility rule of moderated games (CS-M2): 0 is
	// Reach, r > 0 is Radius(r). Tag Visibility.
	Radius int
	// Catalogue lists the new designs the design phase offers as legal
	// moves (3.11); nil means the package's Catalogue. Designs outside it
	// are legal too when named (DecodeMove), but only the catalogue is in
	// LegalMoves. Tag DesignCatalogue (comma-separated).
	Catalogue []string
}

// DefaultOptions returns the default rules: no relay, not moderated, an
// 8x8 board without terrain.
func DefaultOptions() Options { return Options{Files: 8, Ranks: 8} }

// size returns the board size with defaults applied.
func (o Options) size() (int, int) {
	f, r := o.Files, o.Ranks
	if f == 0 {
		f = 8
	}
	if r == 0 {
		r = 8
	}
	return f, r
}

// royalCapture reports whether royals are captured instead of checked.
func (o Options) royalCapture() bool { return o.Moderated || o.RoyalCapture }

// parseOptions returns the options of the design parser.
func (o Options) parseOptions() ParseOptions {
	return ParseOptions{GForwardHalf: o.GForwardHalf, NoNarrowWideOnNightrider: o.NoNarrowWideOnNightrider}
}

// check validates the options.
func (o Options) check() error {
	f, r := o.size()
	b, err := geom.NewBoard(f, r)
	if err != nil {
		return fmt.Errorf("%w: MapSize: %v", ErrOption, err)
	}
	if o.MaxTurns < 0 || o.MaxTurns > 1_000_000 {
		return fmt.Errorf("%w: MaxTurns %d", ErrOption, o.MaxTurns)
	}
	if o.Radius < 0 || o.Radius > 16 {
		return fmt.Errorf("%w: Visibility radius %d", ErrOption, o.Radius)
	}
	w, bk := royalStart(f, r)
	for _, s := range o.Terrain {
		if !b.OnGrid(s) {
			return fmt.Errorf("%w: Terrain square %v is off the %dx%d board", ErrOption, s, f, r)
		}
		if s == w || s == bk {
			return fmt.Errorf("%w: Terrain square %v is a royal's start square", ErrOption, s)
		}
	}
	for _, d := range o.Catalogue {
		pd, err := ParseDesignWith(d, o.parseOptions())
		if err != nil {
			return fmt.Errorf("%w: DesignCatalogue: %w", ErrOption, err)
		}
		if pd.Relay && !o.Relay {
			return fmt.Errorf("%w: DesignCatalogue: %q needs the Relay option", ErrOption, d)
		}
	}
	for _, d := range o.FiftyMoveResetDesigns {
		if _, err := ParseDesignWith(d, o.parseOptions()); err != nil {
			return fmt.Errorf("%w: FiftyMoveResetDesigns: %w", ErrOption, err)
		}
	}
	return nil
}

// royalStart returns the start squares of the two royals on a board of the
// given size: the middle file (e on 8 files), first and last rank.
func royalStart(files, ranks int) (geom.Square, geom.Square) {
	f := files / 2
	return geom.Sq(f, 0), geom.Sq(f, ranks-1)
}

func boolTag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Tags returns the options as PGN tag name and value pairs, every option
// with its value.
func (o Options) Tags() [][2]string {
	f, r := o.size()
	g := "0.7"
	if o.GForwardHalf {
		g = "0.5"
	}
	vis := "Reach"
	if o.Radius > 0 {
		vis = fmt.Sprintf("Radius(%d)", o.Radius)
	}
	reset := "fmWfcF"
	if o.FiftyMoveResetDesigns != nil {
		reset = strings.Join(o.FiftyMoveResetDesigns, ",")
		if reset == "" {
			reset = "-"
		}
	}
	terrain := "-"
	if len(o.Terrain) > 0 {
		names := make([]string, len(o.Terrain))
		for i, s := range o.Terrain {
			names[i] = s.String()
		}
		terrain = strings.Join(names, ",")
	}
	cat := strings.Join(Catalogue, ",")
	if o.Catalogue != nil {
		cat = strings.Join(o.Catalogue, ",")
		if cat == "" {
			cat = "-"
		}
	}
	return [][2]string{
		{"Relay", boolTag(o.Relay)},
		{"Moderated", boolTag(o.Moderated)},
		{"RoyalCapture", boolTag(o.RoyalCapture)},
		{"ReserveRoyalsCount", boolTag(o.ReserveRoyalsCount)},
		{"MaxTurns", strconv.Itoa(o.MaxTurns)},
		{"FiftyMoveRule", boolTag(!o.NoFiftyMoveRule)},
		{"FiftyMoveResetDesigns", reset},
		{"GForwardMultiplier", g},
		{"NarrowWideOnNightrider", boolTag(!o.NoNarrowWideOnNightrider)},
		{"HideEconomy", boolTag(o.HideEconomy)},
		{"MapSize", fmt.Sprintf("%dx%d", f, r)},
		{"Terrain", terrain},
		{"Visibility", vis},
		{"DesignCatalogue", cat},
	}
}

func parseBool(name, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%w: %s %q (want 1 or 0)", ErrOption, name, v)
}

// SetTags changes o by the option tags among tags; other names are
// ignored. The result is checked.
func (o *Options) SetTags(tags map[string]string) error {
	n := *o
	var err error
	for name, v := range tags {
		v = strings.TrimSpace(v)
		switch name {
		case "Relay":
			n.Relay, err = parseBool(name, v)
		case "Moderated":
			n.Moderated, err = parseBool(name, v)
		case "RoyalCapture":
			n.RoyalCapture, err = parseBool(name, v)
		case "ReserveRoyalsCount":
			n.ReserveRoyalsCount, err = parseBool(name, v)
		case "HideEconomy":
			n.HideEconomy, err = parseBool(name, v)
		case "FiftyMoveRule":
			var on bool
			on, err = parseBool(name, v)
			n.NoFiftyMoveRule = !on
		case "NarrowWideOnNightrider":
			var on bool
			on, err = parseBool(name, v)
			n.NoNarrowWideOnNightrider = !on
		case "MaxTurns":
			n.MaxTurns, err = strconv.Atoi(v)
			if err != nil || n.MaxTurns < 0 {
				err = fmt.Errorf("%w: MaxTurns %q (want a number of moves, 0 for none)", ErrOption, v)
			}
		case "GForwardMultiplier":
			switch v {
			case "0.7":
				n.GForwardHalf = false
			case "0.5":
				n.GForwardHalf = true
			default:
				err = fmt.Errorf("%w: GForwardMultiplier %q (want 0.7 or 0.5)", ErrOption, v)
			}
		case "FiftyMoveResetDesigns":
			n.FiftyMoveResetDesigns = []string{}
			if v != "-" && v != "" {
				n.FiftyMoveResetDesigns = strings.Split(v, ",")
			}
		case "DesignCatalogue":
			n.Catalogue = []string{}
			if v != "-" && v != "" {
				n.Catalogue = strings.Split(v, ",")
			}
		case "MapSize":
			n.Files, n.Ranks, err = parseMapSize(v)
		case "Terrain":
			n.Terrain, err = parseTerrain(v)
		case "Visibility":
			n.Radius, err = parseVisibility(v)
		case "Plunder":
			if on, e := parseBool(name, v); e != nil || on {
				err = fmt.Errorf("%w: Plunder is not a rule of csipgs (3.7 A-l)", ErrOption)
			}
		}
		if err != nil {
			return err
		}
	}
	if err := n.check(); err != nil {
		return err
	}
	*o = n
	return nil
}

// parseMapSize reads "FxR" (files by ranks), or "kxkb": k by k sub-boards of
// 8x8 (at most 2x2).
func parseMapSize(v string) (int, int, error) {
	sub := strings.HasSuffix(v, "b")
	w, h, ok := strings.Cut(strings.TrimSuffix(v, "b"), "x")
	f, err1 := strconv.Atoi(w)
	r, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%w: MapSize %q (want files x ranks, such as 8x8 or 16x16)", ErrOption, v)
	}
	if sub {
		f, r = f*8, r*8
	}
	if _, err := geom.NewBoard(f, r); err != nil {
		return 0, 0, fmt.Errorf("%w: MapSize %q: %v", ErrOption, v, err)
	}
	return f, r, nil
}

// parseTerrain reads comma-separated square names on the largest board;
// the board size is checked with the other options.
func parseTerrain(v string) ([]geom.Square, error) {
	if v == "-" || v == "" {
		return nil, nil
	}
	big := geom.Board{Files: geom.MaxFiles, Ranks: geom.MaxRanks}
	var out []geom.Square
	for _, name := range strings.Split(v, ",") {
		s, err := big.ParseSquare(strings.TrimSpace(name))
		if err != nil {
			return nil, fmt.Errorf("%w: Terrain: %v", ErrOption, err)
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, nil
}

// parseVisibility reads "Reach" or "Radius(r)".
func parseVisibility(v string) (int, error) {
	if v == "Reach" {
		return 0, nil
	}
	if rest, ok := strings.CutPrefix(v, "Radius("); ok {
		if num, ok := strings.CutSuffix(rest, ")"); ok {
			if r, err := strconv.Atoi(num); err == nil && r >= 1 && r <= 16 {
				return r, nil
			}
		}
	}
	return 0, fmt.Errorf("%w: Visibility %q (want Reach or Radius(1..16))", ErrOption, v)
}
