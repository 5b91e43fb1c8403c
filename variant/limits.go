package variant

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
	"github.com/pelletier/go-toml/v2"
)

// Limits bound a variant that a user gives (a server's saved variants, the
// files of `anychess serve -variants`), so that no such variant makes the
// rules or the engine slow for everyone else. The built-in variants are
// trusted and not checked. Zero fields take the defaults of
// DefaultLimits; a negative field turns that limit off.
type Limits struct {
	// MaxBytes bounds the file's text (default 64 KiB).
	MaxBytes int
	// MaxFiles and MaxRanks bound the board (default 12 each).
	MaxFiles, MaxRanks int
	// MaxTypes bounds the piece types (default 16).
	MaxTypes int
	// MaxPieces bounds the pieces of the start position, both sides and
	// their reserves together (default 64).
	MaxPieces int
	// MaxMoves bounds one piece type's movement: the moves a piece of it
	// has from the centre of the empty board (default 64; a queen has 27
	// on 8x8 and 43 on 12x12).
	MaxMoves int
	// MaxMobility bounds the start position's movement: the sum over
	// its pieces (reserves included) of their types' moves from the
	// centre of the empty board (default 1200; chess has 226).
	MaxMobility int
}

// DefaultLimits returns the limits a zero Limits stands for.
func DefaultLimits() Limits { return Limits{}.WithDefaults() }

// WithDefaults returns l with its zero fields set to the defaults.
func (l Limits) WithDefaults() Limits {
	set := func(p *int, d int) {
		if *p == 0 {
			*p = d
		}
	}
	set(&l.MaxBytes, 64<<10)
	set(&l.MaxFiles, 12)
	set(&l.MaxRanks, 12)
	set(&l.MaxTypes, 16)
	set(&l.MaxPieces, 64)
	set(&l.MaxMoves, 64)
	set(&l.MaxMobility, 1200)
	return l
}

// ErrLimit is wrapped by every error of a variant beyond the limits.
var ErrLimit = errors.New("variant beyond the limits")

// over reports whether n is beyond limit max (max < 0: no limit).
func over(n, max int) bool { return max >= 0 && n > max }

// CheckText checks a file's text before it is read: its length.
func CheckText(data []byte, lim Limits) error {
	lim = lim.WithDefaults()
	if over(len(data), lim.MaxBytes) {
		return fmt.Errorf("%w: the file is %d bytes, at most %d are accepted", ErrLimit, len(data), lim.MaxBytes)
	}
	return nil
}

// CheckLimits checks a compiled variant against lim: its board, piece
// types, start pieces and movement. It only builds positions and lists
// moves of single pieces, so it is cheap whatever the variant: a variant
// it accepts may then be searched or counted (perft). The error names
// the limit and the piece type it concerns.
func CheckLimits(v *rules.Variant, lim Limits) error {
	lim = lim.WithDefaults()
	b := v.Board()
	if over(b.Files, lim.MaxFiles) || over(b.Ranks, lim.MaxRanks) {
		return fmt.Errorf("%w: board %dx%d: at most %dx%d", ErrLimit, b.Files, b.Ranks, lim.MaxFiles, lim.MaxRanks)
	}
	if over(v.NumTypes(), lim.MaxTypes) {
		return fmt.Errorf("%w: %d piece types: at most %d", ErrLimit, v.NumTypes(), lim.MaxTypes)
	}
	start := v.Start()
	count := make([]int, v.NumTypes()+1)
	total := 0
	for _, c := range []rules.Color{rules.White, rules.Black} {
		for _, sq := range start.Pieces(c) {
			count[start.At(sq).Type()]++
			total++
		}
		for t := 1; t <= v.NumTypes(); t++ {
			n := start.Pocket(c, rules.Type(t))
			count[t] += n
			total += n
		}
	}
	if over(total, lim.MaxPieces) {
		return fmt.Errorf("%w: %d pieces in the start position: at most %d", ErrLimit, total, lim.MaxPieces)
	}
	mobility := 0
	for t := 1; t <= v.NumTypes(); t++ {
		n, err := CentreMoves(v, rules.Type(t))
		if err != nil {
			return err
		}
		if over(n, lim.MaxMoves) {
			ps := v.PieceSpec(rules.Type(t))
			return fmt.Errorf("%w: piece %c (%s, %q) has %d moves from the centre of the empty board: at most %d",
				ErrLimit, ps.Letter, ps.Name, ps.Betza, n, lim.MaxMoves)
		}
		mobility += n * count[t]
	}
	if over(mobility, lim.MaxMobility) {
		return fmt.Errorf("%w: the start position's pieces have %d moves together from the centre of the empty board: at most %d",
			ErrLimit, mobility, lim.MaxMobility)
	}
	return nil
}

// CentreMoves returns the number of squares a white piece of type t
// reaches from the centre of v's otherwise empty board (the lower-left of
// the four middle squares of an even board: d4 on 8x8), castling and
// drops left out.
func CentreMoves(v *rules.Variant, t rules.Type) (int, error) {
	b := v.Board()
	from, ok := centre(b)
	if !ok {
		return 0, fmt.Errorf("%w: the board has no square", ErrFile)
	}
	p := v.Start()
	for _, c := range []rules.Color{rules.White, rules.Black} {
		for _, sq := range append([]geom.Square(nil), p.Pieces(c)...) {
			p.Remove(sq)
		}
	}
	p.SetTurnState(rules.White, 0, 0)
	if !p.Put(from, rules.MakePiece(rules.White, t)) {
		return 0, fmt.Errorf("%w: piece %c cannot stand on %s", ErrFile, v.Letter(t), from)
	}
	seen := map[geom.Square]bool{}
	for _, m := range p.PseudoLegalMoves(make([]rules.Move, 0, rules.MaxMoves)) {
		if m.From() == from && m.Kind() != rules.Drop && m.Kind() != rules.Castle && m.To() != from {
			seen[m.To()] = true
		}
	}
	return len(seen), nil
}

// centre returns the square of b nearest its middle, as CentreMoves
// describes.
func centre(b geom.Board) (geom.Square, bool) {
	best, found, bestD := geom.Square(0), false, 0
	cf, cr := (b.Files-1)/2, (b.Ranks-1)/2
	for _, sq := range b.Squares() {
		d := (sq.File()-cf)*(sq.File()-cf) + (sq.Rank()-cr)*(sq.Rank()-cr)
		if !found || d < bestD {
			best, bestD, found = sq, d, true
		}
	}
	return best, found
}

// Definition returns the self-contained text of a variant file: data
// itself if it names no base, else the file with its base chain merged
// in (resolved by resolve), written out as one TOML document without a
// base. Compiled, it gives the variant data gives, and it no longer
// depends on any other file: a game records it to be replayed exactly
// whatever becomes of the base.
func Definition(data []byte, origin string, resolve Resolver) ([]byte, error) {
	var head struct {
		Base string `toml:"base"`
	}
	if err := toml.Unmarshal(data, &head); err != nil {
		return nil, tomlError(origin, data, err)
	}
	if head.Base == "" {
		return data, nil
	}
	f, err := decode(data, origin, resolve, 0)
	if err != nil {
		return nil, err
	}
	f.Base = ""
	var buf bytes.Buffer
	enc := toml.NewEncoder(&buf)
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrFile, origin, err)
	}
	return buf.Bytes(), nil
}

// Check is a Check (for LoadPathChecked) by the limits l: CheckText, then
// CheckLimits.
func (l Limits) Check(_ string, data []byte, v *rules.Variant) error {
	if err := CheckText(data, l); err != nil {
		return err
	}
	return CheckLimits(v, l)
}

// DefinitionHash returns the name of a definition's text as games record
// it: "sha256:" and the SHA-256 of the text in hex.
func DefinitionHash(def []byte) string {
	h := sha256.Sum256(def)
	return "sha256:" + hex.EncodeToString(h[:])
}

// DefinitionOf returns the definition (see Definition) of the variant
// name whose file resolve finds, and its hash; ok is false for a variant
// without a file (one built in Go code).
func DefinitionOf(resolve Resolver, name string) (def []byte, hash string, ok bool, err error) {
	data, ok := resolve(name)
	if !ok {
		return nil, "", false, nil
	}
	if def, err = Definition(data, name, resolve); err != nil {
		return nil, "", false, err
	}
	return def, DefinitionHash(def), true, nil
}
