package csipgs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/anychess/anychess/rules"
)

// EncodeMove (rules.MoveText) writes the text of buys ("+N"; PGN keeps
// "$" for NAGs, so the proposal's "$N" is read but not written), design
// changes ("&Q>Y=FfR" for a new design, "&Y>P" to re-adopt a design of the
// type table) and of keeping the designs ("&-"). Piece moves and transfers
// are the core's (e1e2, N@e2).
func (z *csipgs) EncodeMove(p *rules.Position, m rules.Move) (string, bool) {
	st := z.stateOf(p)
	switch KindOf(m) {
	case Buy:
		return "+" + string(rune('A'+m.Payload()&31-1)), true
	case Pass:
		return "&-", true
	case Redesign:
		slot, l, id := designFields(m)
		if slot >= Slots || l < 1 || l > 26 {
			return "", false
		}
		s := "&" + string(rune('A'+st.slots[p.Turn()][slot]-1)) + ">" + string(rune('A'+l-1))
		if id != 0 {
			c := z.design(id)
			if c == nil {
				return "", false
			}
			s += "=" + c.text
		}
		return s, true
	}
	return "", false
}

// FormatMove returns the text of a move in the csipgs syntax of 3.9: a
// piece move in long algebraic notation with its type letter ("Ke1-e2",
// "Ne4xf6"), a transfer "N@e2", a buy "+N" ("$N" is read too), a design
// change "&Q>Y=FfR" or
// "&Y>P", and "&-" for a design phase without change.
func FormatMove(p *rules.Position, m rules.Move) string {
	z, ok := ensure(p)
	if !ok {
		return ""
	}
	switch KindOf(m) {
	case PieceMove:
		pc := p.At(m.From())
		sep := "-"
		if p.At(m.To()).IsPiece() {
			sep = "x"
		}
		return string(rune('A'+int(pc.Type())-1)) + m.From().String() + sep + m.To().String()
	case Transfer:
		return string(rune('A'+int(m.Promo())-1)) + "@" + m.To().String()
	}
	s, _ := z.EncodeMove(p, m)
	return s
}

// DecodeMove (rules.MoveText) reads the syntax of FormatMove and
// returns the move only if it is legal. A design change may name any
// valid design, not only those LegalMoves lists.
func (z *csipgs) DecodeMove(p *rules.Position, s string) (rules.Move, bool) {
	if len(s) == 0 || len(s) > 96 {
		return 0, false
	}
	st := z.stateOf(p)
	switch s[0] {
	case '$', '+':
		if len(s) != 2 || s[1] < 'A' || s[1] > 'Z' {
			return 0, false
		}
		m := buyMove(s[1] - 'A' + 1)
		if p.Phase() != 0 || !st.buyOK(p, m) {
			return 0, false
		}
		return m, true
	case '&':
		return z.decodeDesign(p, st, s[1:])
	}
	// Long algebraic: letter, from, - or x, to.
	if s[0] < 'A' || s[0] > 'Z' || p.Phase() != 0 {
		return 0, false
	}
	b := p.Variant().Board()
	rest := s[1:]
	from, n, err := b.ScanSquare(rest)
	if err != nil || n >= len(rest) || (rest[n] != '-' && rest[n] != 'x') {
		return 0, false
	}
	capture := rest[n] == 'x'
	to, err := b.ParseSquare(rest[n+1:])
	if err != nil {
		return 0, false
	}
	pc := p.At(from)
	if !pc.IsPiece() || pc.Color() != p.Turn() || int(pc.Type()) != int(s[0]-'A'+1) {
		return 0, false
	}
	if capture != p.At(to).IsPiece() {
		return 0, false
	}
	m := pieceMove(from, to, capture)
	buf := z.getBuf()
	defer z.putBuf(buf)
	*buf = p.LegalMoves(*buf)
	for _, x := range *buf {
		if x == m {
			return m, true
		}
	}
	return 0, false
}

// decodeDesign reads a design change after the "&".
func (z *csipgs) decodeDesign(p *rules.Position, st *state, s string) (rules.Move, bool) {
	if p.Phase() != 1 {
		return 0, false
	}
	if s == "-" {
		return passMove(), true
	}
	us := p.Turn()
	if len(s) > 4 && s[1] == '>' && s[2] == '?' && s[3] == '=' {
		// "&Q>?=FfR": the design into slot Q under the letter the rules
		// give it (a client need not know which letter is free).
		m, err := DesignMove(p, s[0], s[4:])
		return m, err == nil
	}
	if len(s) < 3 || s[1] != '>' || s[0] < 'A' || s[0] > 'Z' || s[2] < 'A' || s[2] > 'Z' {
		return 0, false
	}
	old := s[0] - 'A' + 1
	l := s[2] - 'A' + 1
	slot := st.slotOf(us, old)
	if slot < 0 {
		return 0, false
	}
	var m rules.Move
	switch {
	case len(s) == 3:
		m = designMove(slot, l, 0)
	case s[3] == '=':
		d, err := ParseDesignWith(s[4:], z.po)
		if err != nil {
			return 0, false
		}
		if c := st.table[l]; c != nil && c.text == d.String() {
			m = designMove(slot, l, 0) // "&Q>Y=design" naming Y's own design
			break
		}
		c, err := z.intern(d)
		if err != nil {
			return 0, false
		}
		m = designMove(slot, l, c.id)
	default:
		return 0, false
	}
	if !st.validDesign(p, m) {
		return 0, false
	}
	return m, true
}

// ParseMove reads a move in the syntax of FormatMove, or in the core's
// coordinate syntax (e1e2, N@e2), and returns it if it is legal in p.
func ParseMove(p *rules.Position, s string) (rules.Move, error) {
	z, ok := ensure(p)
	if !ok {
		return 0, ErrNotCsipgs
	}
	s = strings.TrimSpace(s)
	if m, ok := z.DecodeMove(p, s); ok {
		return m, nil
	}
	b := p.Variant().Board()
	buf := z.getBuf()
	defer z.putBuf(buf)
	*buf = p.LegalMoves(*buf)
	if i := strings.IndexByte(s, '@'); i == 1 && len(s) > 2 {
		if to, err := b.ParseSquare(s[2:]); err == nil && s[0] >= 'A' && s[0] <= 'Z' {
			m := transferMove(rules.Type(s[0]-'A'+1), to)
			for _, x := range *buf {
				if x == m {
					return m, nil
				}
			}
		}
		return 0, &MoveError{Text: s, Msg: "not a legal transfer"}
	}
	if from, n, err := b.ScanSquare(s); err == nil {
		if to, err := b.ParseSquare(s[n:]); err == nil {
			for _, x := range *buf {
				if KindOf(x) == PieceMove && x.From() == from && x.To() == to {
					return x, nil
				}
			}
		}
	}
	return 0, &MoveError{Text: s, Msg: explain(p, s)}
}

// ExplainMove (rules.MoveText) gives the reason a text of csipgs's own
// move syntax (a buy, a design change, or anything in the design phase)
// names no legal move. Other texts keep the core's reason.
func (z *csipgs) ExplainMove(p *rules.Position, s string) error {
	s = strings.TrimSpace(s)
	if s == "" || p.Phase() == 0 && !strings.ContainsAny(s[:1], "$+&") {
		return nil
	}
	if _, err := ParseMove(p, s); err == nil {
		return nil
	}
	return errors.New(explain(p, s))
}

// explain says why a move text was not read.
func explain(p *rules.Position, s string) string {
	switch {
	case s == "":
		return "empty"
	case s[0] == '&' && p.Phase() == 1 && strings.Contains(s, "="):
		if _, err := ParseDesign(s[strings.Index(s, "=")+1:]); err != nil {
			return fmt.Sprintf("not a valid design change: %v", err)
		}
		return "not a valid design change"
	case (s[0] == '$' || s[0] == '+') && len(s) == 2:
		if err := BuyRefusal(p, s[1]); err != nil {
			return err.Error()
		}
		return "not a legal buy"
	case s[0] == '$' || s[0] == '+':
		return "a buy is + and a design letter"
	case s[0] == '&' && p.Phase() != 1:
		return "a design change comes after the action"
	case s[0] == '&':
		return "not a valid design change"
	case p.Phase() != 0:
		return "the design phase needs a design change or &-"
	}
	return "not a legal action"
}

// MoveError reports a move text that names no legal move.
type MoveError struct {
	Text string
	Msg  string
}

// Error returns the text and why it names no legal move.
func (e *MoveError) Error() string { return "csipgs: illegal move " + quote(e.Text) + ": " + e.Msg }

func quote(s string) string { return "\"" + s + "\"" }

// ensure returns the csipgs of a position's variant, installing the state
// in a position the core made without one.
func ensure(p *rules.Position) (*csipgs, bool) {
	if p == nil {
		return nil, false
	}
	if z, ok := hooksOf(p); ok {
		return z, true
	}
	z, ok := hooksOfVariant(p.Variant())
	if !ok {
		return nil, false
	}
	z.FEN(p) // FEN installs the state
	return hooksOf(p)
}
