package vazir

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// ErrRFEN is wrapped by every error ParseRFEN returns; it wraps
// rules.ErrFEN, so errors.Is(err, rules.ErrFEN) holds as well.
var ErrRFEN = fmt.Errorf("%w: bad RFEN", rules.ErrFEN)

// maxRFEN bounds the input, as the core bounds FEN.
const maxRFEN = 4096

func rfenError(s, format string, args ...any) error {
	return fmt.Errorf("%w %q: %s", ErrRFEN, s, fmt.Sprintf(format, args...))
}

// ParseRFEN reads a position in Ranked FEN (VZ section 1.9): FEN in which
// every piece letter is followed by exactly one rank digit, and an optional
// last field t<n>[K] giving the failed tries of the current turn and the
// VZ-15b extra-move state. (With SameTargetOnly this package also writes
// the square of the failed target after the field, "t1@e5".) The
// halfmove and fullmove fields may be left out as in FEN; the turn field
// is then the last one. Without it the turn state is t0.
//
// v must be a Vazir variant from New. The try count is checked against
// v's MPT: below it at the start of a try; equal to it in the extra-move
// state (t3K with MPT 3), or with the side to move in check as the VZ-15a
// loss the package writes when the tries are used up without an escape; a
// count above MPT, or equal to it otherwise, is an error.
func ParseRFEN(v *rules.Variant, s string) (*rules.Position, error) {
	if v == nil {
		return nil, rfenError(s, "no variant")
	}
	if len(s) > maxRFEN {
		return nil, rfenError(s[:32]+"...", "longer than %d bytes", maxRFEN)
	}
	fields := strings.Fields(s)
	if len(fields) < 2 {
		return nil, rfenError(s, "want at least board and side to move")
	}
	var phase, counter uint8
	target := geom.NoSquare
	if last := fields[len(fields)-1]; len(fields) >= 3 && strings.HasPrefix(last, "t") {
		var err error
		phase, counter, target, err = parseTurnField(v, last)
		if err != nil {
			return nil, rfenError(s, "turn state %q: %v", last, err)
		}
		fields = fields[:len(fields)-1]
	}
	if len(fields) > 6 {
		return nil, rfenError(s, "%d fields before the turn state; at most 6", len(fields))
	}
	board, ranks, err := stripRanks(fields[0])
	if err != nil {
		return nil, rfenError(s, "board: %v", err)
	}
	fields[0] = board
	p, err := v.ParsePlainFEN(strings.Join(fields, " "))
	if err != nil {
		return nil, fmt.Errorf("%w %q: %w", ErrRFEN, s, err)
	}
	if phase == PhaseExtra && p.EnPassant() != geom.NoSquare {
		return nil, rfenError(s, "an en-passant square in the extra-move state")
	}
	// Give each piece its rank, in FEN order (rank 8 first, file a first).
	b := v.Board()
	i := 0
	for r := b.Ranks - 1; r >= 0; r-- {
		for f := 0; f < b.Files; f++ {
			sq := geom.Sq(f, r)
			pc := p.At(sq)
			if !pc.IsPiece() {
				continue
			}
			if i >= len(ranks) {
				return nil, rfenError(s, "more pieces than rank digits")
			}
			p.Remove(sq)
			p.Put(sq, pc.WithAttr(uint16(ranks[i])))
			i++
		}
	}
	if i != len(ranks) {
		return nil, rfenError(s, "%d rank digits for %d pieces", len(ranks), i)
	}
	for _, c := range []rules.Color{rules.White, rules.Black} {
		kings := 0
		for _, sq := range p.Pieces(c) {
			if v.Royal(p.At(sq).Type()) {
				kings++
			}
		}
		if kings != 1 {
			return nil, rfenError(s, "%s has %d kings; want 1", c, kings)
		}
	}
	them := p.Turn().Other()
	if k := kingSquare(p, them); p.Attacked(k, p.Turn(), p.At(k).Type()) {
		return nil, rfenError(s, "%s, not to move, is in check (kings are never captured, VZ-17)", them)
	}
	st := &state{}
	if target != geom.NoSquare {
		if phase != 0 || counter == 0 {
			return nil, rfenError(s, "a failed target needs failed tries and no extra move")
		}
		if pc := p.At(target); !pc.IsPiece() || pc.Color() == p.Turn() {
			return nil, rfenError(s, "the failed target %s holds no enemy piece", target)
		}
		st.cur.target = target
	}
	p.SetState(st)
	if phase == PhaseExtra && !p.InCheck() {
		return nil, rfenError(s, "the extra-move state K needs the side to move in check (VZ-15b)")
	}
	mpt := mptOf(v)
	switch {
	case int(counter) > mpt:
		return nil, rfenError(s, "%d tries used; MPT is %d", counter, mpt)
	case phase == PhaseExtra && int(counter) != mpt:
		return nil, rfenError(s, "the extra-move state K comes after all %d tries: want t%dK", mpt, mpt)
	case phase == 0 && int(counter) == mpt && !p.InCheck():
		return nil, rfenError(s, "all %d tries used and not in check: the turn is over", mpt)
	}
	p.SetTurnState(p.Turn(), phase, counter)
	return p, nil
}

// mptOf returns the MPT of the Vazir variant v (its option tag).
func mptOf(v *rules.Variant) int {
	for _, o := range v.Options() {
		if o.Name == "MPT" {
			if n, err := strconv.Atoi(o.Value); err == nil && n >= 1 {
				return n
			}
		}
	}
	return DefaultMPT
}

// parseTurnField reads t<n>[K][@square].
func parseTurnField(v *rules.Variant, f string) (phase, counter uint8, target geom.Square, err error) {
	rest := f[1:]
	if at := strings.IndexByte(rest, '@'); at >= 0 {
		target, err = v.Board().ParseSquare(rest[at+1:])
		if err != nil {
			return 0, 0, geom.NoSquare, err
		}
		rest = rest[:at]
	}
	if k, ok := strings.CutSuffix(rest, "K"); ok {
		phase, rest = PhaseExtra, k
	}
	if rest == "" || len(rest) > 3 || strings.Trim(rest, "0123456789") != "" {
		return 0, 0, geom.NoSquare, fmt.Errorf("want t<tries>[K]")
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n > MaxMPT {
		return 0, 0, geom.NoSquare, fmt.Errorf("tries %q out of range 0..%d", rest, MaxMPT)
	}
	return phase, uint8(n), target, nil
}

// stripRanks removes the rank digit after each piece letter, returning the
// FEN board field and the ranks in order.
func stripRanks(field string) (string, []int, error) {
	var sb strings.Builder
	var ranks []int
	for i := 0; i < len(field); i++ {
		c := field[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			if i+1 >= len(field) || field[i+1] < '0' || field[i+1] > '9' {
				return "", nil, fmt.Errorf("piece %q at byte %d has no rank digit", c, i)
			}
			sb.WriteByte(c)
			ranks = append(ranks, int(field[i+1]-'0'))
			i++
			continue
		}
		sb.WriteByte(c)
	}
	return sb.String(), ranks, nil
}

// RFEN writes the position in Ranked FEN with its turn-state field, the
// inverse of ParseRFEN: "k07/.../7K0 w - - 0 1 t0".
func RFEN(p *rules.Position) string {
	v := p.Variant()
	b := v.Board()
	var sb strings.Builder
	for r := b.Ranks - 1; r >= 0; r-- {
		empty := 0
		flush := func() {
			if empty > 0 {
				sb.WriteString(strconv.Itoa(empty))
				empty = 0
			}
		}
		for f := 0; f < b.Files; f++ {
			pc := p.At(geom.Sq(f, r))
			switch {
			case pc.IsPiece():
				flush()
				sb.WriteByte(v.PieceLetter(pc))
				sb.WriteString(strconv.Itoa(int(pc.Attr())))
			case pc == rules.Empty:
				empty++
			default: // a hole
				flush()
				sb.WriteByte('*')
			}
		}
		flush()
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	fields := strings.Fields(p.PlainFEN())
	for len(fields) < 6 {
		fields = append(fields, "-")
	}
	fields[0] = sb.String()
	st, _ := p.State().(*state)
	t := "t" + strconv.Itoa(int(p.Counter()))
	if p.Phase() == PhaseExtra {
		t += "K"
	}
	if st != nil {
		t += st.String()
	}
	return strings.Join(fields, " ") + " " + t
}
