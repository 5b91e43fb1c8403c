package csipgs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/anychess/anychess/rules"
)

// FEN (rules.FENText) writes csipgs-FEN (3.9),
//
//	<board> <side> <wTreasury>/<bTreasury> <wReserve>/<bReserve> <wDesigns>/<bDesigns> <halfmove> <fullmove> {<typeTable>}
//
// The side is "w" or "b" between turns (the treasury before the credit),
// and "w&" or "b&" in the design phase (the treasury after the action).
// Holes (terrain) are written "*". The halfmove field is the csipgs
// 50-move counter (actions since a capture, transfer or pawn-design move).
func (z *csipgs) FEN(p *rules.Position) string {
	st := z.stateOf(p)
	plain := p.PlainFEN()
	board, _, _ := strings.Cut(plain, " ")
	var sb strings.Builder
	sb.WriteString(board)
	sb.WriteByte(' ')
	sb.WriteByte(p.Turn().Letter())
	if p.Phase() == 1 {
		sb.WriteByte('&')
	}
	fmt.Fprintf(&sb, " %d/%d ", p.Money(rules.White), p.Money(rules.Black))
	for c := range 2 {
		if c == 1 {
			sb.WriteByte('/')
		}
		n := 0
		for t := 1; t <= 26; t++ {
			for range p.Pocket(rules.Color(c), rules.Type(t)) {
				sb.WriteByte(byte('A' + t - 1))
				n++
			}
		}
		if n == 0 {
			sb.WriteByte('-')
		}
	}
	sb.WriteByte(' ')
	sb.WriteString(st.designsField())
	fmt.Fprintf(&sb, " %d %d ", st.hm, p.Fullmove())
	sb.WriteString(st.tableField())
	return sb.String()
}

// FENError says which field of a csipgs-FEN is wrong and why. It wraps
// rules.ErrFEN.
type FENError = rules.FENError

// ParseFEN reads csipgs-FEN (rules.FENText).
func (z *csipgs) ParseFEN(v *rules.Variant, s string) (*rules.Position, error) {
	fail := func(field, format string, args ...any) (*rules.Position, error) {
		return nil, &rules.FENError{FEN: s, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if len(s) > 4096 {
		return fail("position", "longer than 4096 bytes")
	}
	fields := strings.Fields(s)
	if len(fields) != 8 {
		return fail("position", "%d fields; want 8: board, side, treasuries, reserves, designs, halfmove, fullmove, type table", len(fields))
	}
	st := &state{z: z}
	// type table
	tf := fields[7]
	if len(tf) < 2 || tf[0] != '{' || tf[len(tf)-1] != '}' {
		return fail("type table", "%q is not {X=design,...}", tf)
	}
	if inner := tf[1 : len(tf)-1]; inner != "" {
		for _, e := range strings.Split(inner, ",") {
			l, d, ok := strings.Cut(e, "=")
			if !ok || len(l) != 1 || l[0] < 'A' || l[0] > 'Z' {
				return fail("type table", "entry %q is not X=design with X an upper-case letter", e)
			}
			k := l[0] - 'A' + 1
			if st.table[k] != nil {
				return fail("type table", "letter %s is defined twice", l)
			}
			c, err := z.internText(d)
			if err != nil {
				return fail("type table", "%s: %v", l, err)
			}
			st.table[k] = c
		}
	}
	letter := func(field string, b byte) (uint8, error) {
		if b < 'A' || b > 'Z' || st.table[b-'A'+1] == nil {
			return 0, &rules.FENError{FEN: s, Field: field, Msg: fmt.Sprintf("%q is not a letter of the type table", b)}
		}
		return b - 'A' + 1, nil
	}
	// designs
	ds := strings.Split(fields[4], "/")
	if len(ds) != 2 {
		return fail("designs", "%q; want <white>/<black>", fields[4])
	}
	for c, d := range ds {
		if len(d) != Slots {
			return fail("designs", "%q has %d letters; want %d", d, len(d), Slots)
		}
		for i := range Slots {
			if d[i] == hiddenSlot {
				continue // a slot a view does not show
			}
			l, err := letter("designs", d[i])
			if err != nil {
				return nil, err
			}
			st.slots[c][i] = l
		}
	}
	// side and phase
	side := fields[1]
	phase := uint8(0)
	if strings.HasSuffix(side, "&") {
		phase = 1
		side = side[:len(side)-1]
	}
	if side != "w" && side != "b" {
		return fail("side", "%q; want w, b, w& or b&", fields[1])
	}
	hm, err := strconv.Atoi(fields[5])
	if err != nil || hm < 0 || hm > 1_000_000 {
		return fail("halfmove", "%q is not a count", fields[5])
	}
	fm, err := strconv.Atoi(fields[6])
	if err != nil || fm < 1 || fm > 1_000_000 {
		return fail("fullmove", "%q is not a move number", fields[6])
	}
	// board: letters must be in the table
	for i := 0; i < len(fields[0]); i++ {
		b := fields[0][i]
		if b >= 'a' && b <= 'z' {
			b -= 'a' - 'A'
		}
		if b >= 'A' && b <= 'Z' {
			if _, err := letter("board", b); err != nil {
				return nil, err
			}
		}
	}
	p, err := v.ParsePlainFEN(fields[0] + " " + side + " - - " + fields[5] + " " + fields[6])
	if err != nil {
		if fe, ok := err.(*rules.FENError); ok {
			return fail(fe.Field, "%s", fe.Msg)
		}
		return nil, err
	}
	// treasuries
	ts := strings.Split(fields[2], "/")
	if len(ts) != 2 {
		return fail("treasuries", "%q; want <white>/<black>", fields[2])
	}
	for c, t := range ts {
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 || n > 1_000_000_000 {
			return fail("treasuries", "%q is not a number of zorkmids", t)
		}
		p.SetMoney(rules.Color(c), n)
	}
	// reserves
	rs := strings.Split(fields[3], "/")
	if len(rs) != 2 {
		return fail("reserves", "%q; want <white>/<black>", fields[3])
	}
	for c, r := range rs {
		if r == "-" {
			continue
		}
		for i := 0; i < len(r); i++ {
			b := r[i]
			if b >= 'a' && b <= 'z' {
				b -= 'a' - 'A' // either case is read; upper case is written
			}
			l, err := letter("reserves", b)
			if err != nil {
				return nil, err
			}
			if n := p.Pocket(rules.Color(c), rules.Type(l)); n < 255 {
				p.SetPocket(rules.Color(c), rules.Type(l), n+1)
			}
		}
	}
	for c := rules.White; c <= rules.Black; c++ {
		if n := len(p.Pieces(c)) + reserveSize(p, c); n > MaxPiecesPerSide {
			return fail("position", "%s has %d pieces on the board and in reserve; at most %d", c, n, MaxPiecesPerSide)
		}
	}
	st.hm = int32(hm)
	p.SetState(st)
	if phase == 1 {
		p.SetTurnState(p.Turn(), 1, 0)
	}
	if z.o.Moderated {
		z.updateSeen(p, st)
	}
	return p, nil
}
