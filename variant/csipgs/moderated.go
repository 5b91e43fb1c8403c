package csipgs

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// visible returns the squares colour c sees (CS-M2): the squares of its
// pieces; with Reach every square its pieces could move to or capture on
// (a rider's line up to and including the first square that is not empty,
// terrain included), with Radius(r) every square within r king steps of
// its pieces; and every square next to its royals.
func (z *csipgs) visible(p *rules.Position, st *state, c rules.Color) geom.Set {
	var vis geom.Set
	b := p.Variant().Board()
	relay := st.hasRelay(p, c)
	add := func(s geom.Square) {
		if b.OnGrid(s) {
			vis.Add(s)
		}
	}
	for _, from := range p.Pieces(c) {
		vis.Add(from)
		pc := p.At(from)
		d := st.designOf(pc)
		if d == nil {
			continue
		}
		if z.o.Radius > 0 {
			r := z.o.Radius
			for dy := -r; dy <= r; dy++ {
				for dx := -r; dx <= r; dx++ {
					f, k := from.File()+dx, from.Rank()+dy
					if f >= 0 && k >= 0 && f < b.Files && k < b.Ranks {
						vis.Add(geom.Sq(f, k))
					}
				}
			}
		} else {
			reach(p, from, d.legs[c], add)
			if relay {
				for _, y := range p.Pieces(c) {
					r := st.designOf(p.At(y))
					if y != from && r != nil && r.relay && reaches(p, y, r.legs[c], from, nil, true) {
						reach(p, from, r.legs[c], add)
					}
				}
			}
		}
		if d.royal {
			for _, s := range neighbours(from) {
				add(s)
			}
		}
	}
	return vis
}

// reach calls add for every square a piece on from with legs reaches.
func reach(p *rules.Position, from geom.Square, legs []leg, add func(geom.Square)) {
	b := p.Variant().Board()
	for i := range legs {
		l := &legs[i]
		s := int(from)
		for {
			s += l.off
			sq := geom.Square(s)
			if !b.OnGrid(sq) {
				break
			}
			add(sq)
			if !l.rider || p.At(sq) != rules.Empty {
				break
			}
		}
	}
}

// updateSeen adds the terrain each player sees now to what they have seen.
func (z *csipgs) updateSeen(p *rules.Position, st *state) {
	holes := p.Variant().Board().Holes
	if holes.Empty() {
		return
	}
	for c := rules.White; c <= rules.Black; c++ {
		v := z.visible(p, st, c)
		v.Intersect(&holes)
		st.seen[c].Union(&v)
	}
}

// moderated is csipgs's rules object in the moderated mode (CS-M1): the
// rules of csipgs and the hidden information besides, each player's View,
// determinization for the engine, and the moderator. Open games have none
// of these (Spec.Ext is then the *csipgs itself).
type moderated struct{ *csipgs }

// View (rules.Viewer) returns the observation of CS-M2..CS-M4.
func (m moderated) View(p *rules.Position, c rules.Color) rules.View {
	v, err := m.view(p, c)
	if err != nil {
		// Cannot happen for a position of this variant; show nothing
		// rather than everything.
		return rules.View{Viewer: c}
	}
	return v
}

// Determinize (rules.Determinizer) samples a position consistent with a
// view (determinize).
func (m moderated) Determinize(v rules.View, r *rand.Rand) *rules.Position {
	return m.determinize(v, r)
}

// Moderate (rules.Moderator) is the moderator of CS-M1 and CS-M5
// (moderate).
func (m moderated) Moderate(p, view *rules.Position, mv rules.Move) (rules.Move, error) {
	return m.moderate(p, view, mv)
}

// viewVariant returns the variant whose board has exactly the given holes:
// the terrain a player knows.
func (z *csipgs) viewVariant(holes geom.Set) (*rules.Variant, error) {
	z.viewMu.Lock()
	defer z.viewMu.Unlock()
	if v, ok := z.views[holes]; ok {
		return v, nil
	}
	v, err := z.compile(holes)
	if err != nil {
		return nil, err
	}
	if len(z.views) > 4096 {
		clear(z.views)
	}
	z.views[holes] = v
	return v, nil
}

// view builds c's observation of p: a new position (no history) on a
// board with only the terrain c has seen, holding c's pieces and the enemy
// pieces on squares c sees, the public economy (the opponent's treasury,
// reserve and design slots hidden under HideEconomy), and c's seen
// terrain alone.
func (z *csipgs) view(p *rules.Position, c rules.Color) (rules.View, error) {
	st := z.stateOf(p)
	vis := z.visible(p, st, c)
	known := st.seen[c]
	now := p.Variant().Board().Holes
	now.Intersect(&vis)
	known.Union(&now)
	vv, err := z.viewVariant(known)
	if err != nil {
		return rules.View{}, err
	}
	b := vv.Board()
	var sb strings.Builder
	for r := b.Ranks - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < b.Files; f++ {
			s := geom.Sq(f, r)
			var ch byte
			switch {
			case b.Holes.Has(s):
				ch = '*'
			case vis.Has(s) && p.At(s).IsPiece():
				ch = p.Variant().PieceLetter(p.At(s))
			}
			if ch == 0 {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&sb, empty)
				empty = 0
			}
			sb.WriteByte(ch)
		}
		if empty > 0 {
			fmt.Fprint(&sb, empty)
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	// The halfmove counter is not shown: it would tell whether an unseen
	// action of the opponent was a capture or a pawn move (it resets).
	fmt.Fprintf(&sb, " %c - - 0 %d", p.Turn().Letter(), p.Fullmove())
	q, err := vv.ParsePlainFEN(sb.String())
	if err != nil {
		return rules.View{}, fmt.Errorf("csipgs: view: %w", err)
	}
	for col := rules.White; col <= rules.Black; col++ {
		if col != c && z.o.HideEconomy {
			continue
		}
		q.SetMoney(col, p.Money(col))
		for t := 1; t <= 26; t++ {
			q.SetPocket(col, rules.Type(t), p.Pocket(col, rules.Type(t)))
		}
	}
	ns := &state{z: z, table: st.table, slots: st.slots}
	ns.seen[c] = known
	if !z.o.HideEconomy {
		// The opponent's pieces out of sight, by type: what the public
		// economy tells (a view of a view keeps the count it had).
		them := c.Other()
		ns.hidden[them] = st.hidden[them]
		for _, s := range p.Pieces(them) {
			if !vis.Has(s) {
				if t := p.At(s).Type(); t >= 1 && t <= 26 && ns.hidden[them][t] < 255 {
					ns.hidden[them][t]++
				}
			}
		}
	} else {
		// The opponent's designs are hidden with its treasury and reserve
		// (CS-M4 names the three together).
		ns.slots[c.Other()] = [Slots]uint8{}
		// Keep only the types the view itself uses: a type named only by
		// a hidden slot or reserve or an unseen piece would hint at it.
		used := ns.referenced(q, c, -1)
		for l := 1; l <= 26; l++ {
			if !used[l] {
				ns.table[l] = nil
			}
		}
	}
	q.SetState(ns)
	if p.Phase() != 0 {
		q.SetTurnState(p.Turn(), p.Phase(), p.Counter())
	}
	view := rules.View{Viewer: c, Visible: vis, Position: q}
	view.EconomyHidden[c.Other()] = z.o.HideEconomy
	return view, nil
}

// determinize returns a full position consistent with a view. The sample keeps what the view shows and puts the
// opponent's pieces the view knows of but does not show (by type, from
// the public economy) on unseen empty squares at random; if then no enemy
// royal is on the board (HideEconomy), it puts one royal of the
// opponent's first royal design (with its slots hidden, of the first
// royal design of the type table) on a random unseen empty square.
// The board is the view's: unseen terrain is taken to be open.
func (z *csipgs) determinize(v rules.View, r *rand.Rand) *rules.Position {
	if v.Position == nil {
		return nil
	}
	q := v.Position.Clone()
	st := z.stateOf(q)
	them := v.Viewer.Other()
	var free []geom.Square
	for _, s := range q.Variant().Board().Squares() {
		if !v.Visible.Has(s) && q.At(s) == rules.Empty {
			free = append(free, s)
		}
	}
	// The pieces the view knows of but does not show, on unseen
	// empty squares at random.
	placed := false
	for t := 1; t <= 26; t++ {
		for range st.hidden[them][t] {
			if len(free) == 0 {
				break
			}
			i := r.IntN(len(free))
			q.Put(free[i], rules.MakePiece(them, rules.Type(t)))
			free[i] = free[len(free)-1]
			free = free[:len(free)-1]
			placed = true
		}
	}
	if placed {
		st.hidden[them] = [27]uint8{}
	}
	if st.royals(q, them) > 0 {
		return q
	}
	var royal rules.Type
	for _, l := range st.slots[them] {
		if d := st.table[l]; d != nil && d.royal {
			royal = rules.Type(l)
			break
		}
	}
	if royal == 0 {
		for l := 1; l <= 26; l++ {
			if d := st.table[l]; d != nil && d.royal {
				royal = rules.Type(l)
				break
			}
		}
	}
	if royal == 0 {
		return q
	}
	if len(free) == 0 {
		return q
	}
	s := free[r.IntN(len(free))]
	q.Put(s, rules.MakePiece(them, royal))
	return q
}

// ErrRefused is wrapped by the error the moderator returns for an action
// it refuses; it is rules.ErrRefused.
var ErrRefused = rules.ErrRefused

// Refusal is the moderator's answer to an action that is not legal in the
// true position (CS-M5): "illegal, try again", with the reason.
type Refusal struct {
	Move   rules.Move
	Reason string
}

// Error returns the moderator's announcement.
func (e *Refusal) Error() string { return "illegal, try again: " + e.Reason }

// Unwrap makes errors.Is(err, ErrRefused) true.
func (e *Refusal) Unwrap() error { return ErrRefused }

// moderate is the moderator of CS-M1 and CS-M5: it
// judges an action or design change m that the side to move chose from
// view against the true position p by its text (moderatorText), read in
// p as a player's text would be. So a move is judged by what the player
// asked for, not by what the view thought of it: a piece move onto a
// square the view shows empty is a capture if an unseen enemy piece
// stands there, and a new design gets the letter the rules give it in p.
// A text p does not allow is refused with a *Refusal whose reason tells
// only what view shows.
func (z *csipgs) moderate(p, view *rules.Position, m rules.Move) (rules.Move, error) {
	if view == nil {
		view = p
	}
	if text, ok := moderatorText(view, m); ok {
		if real, err := ParseMove(p, text); err == nil && p.Playable(real) {
			return real, nil
		}
	}
	// The reason is judged on the view: a move the view allows is refused
	// for what the mover cannot see (an unseen check, blocker or
	// impassable square), and saying which would tell it (CS-M5).
	reason := z.refusal(view, m)
	if reason == "" {
		reason = "illegal, try again"
	}
	return rules.NoMove, &Refusal{Move: m, Reason: reason}
}

// moderatorText returns the text of m, a move of view, that the
// moderator reads in the true position: a piece move by its squares alone
// ("a1a4", whatever stands on a4), a transfer, a buy, a design decision,
// and a new design without its letter ("&Q>?=FfR"), since a letter free
// in the view (whose type table lacks what the view does not show) may
// not be free in the true position. ok is false for a move that is not a
// csipgs move of view.
func moderatorText(view *rules.Position, m rules.Move) (string, bool) {
	z, ok := ensure(view)
	if !ok {
		return "", false
	}
	switch KindOf(m) {
	case PieceMove:
		return m.From().String() + m.To().String(), true
	case Transfer:
		return string(rune('A'+int(m.Promo())-1)) + "@" + m.To().String(), true
	case Buy, Pass:
		return z.EncodeMove(view, m)
	case Redesign:
		text, ok := z.EncodeMove(view, m)
		if _, _, id := designFields(m); ok && id != 0 && len(text) > 4 && text[2] == '>' && text[4] == '=' {
			text = text[:3] + "?" + text[4:]
		}
		return text, ok
	}
	return "", false
}

// refusal returns why m is not legal in p, or "".
func (z *csipgs) refusal(p *rules.Position, m rules.Move) string {
	if p.Playable(m) {
		return ""
	}
	st := z.stateOf(p)
	us := p.Turn()
	switch KindOf(m) {
	case Buy:
		if any, _ := st.royalChecked(p, us); any {
			return "no buying while a royal is in check"
		}
		return "the buy is not possible"
	case Transfer:
		if _, safe := st.royalChecked(p, us); !safe {
			return "no transfer: every royal is in check"
		}
		return "no transfer to that square"
	case PieceMove:
		if p.At(m.To()) == rules.Wall {
			return "the square is impassable"
		}
		return "the piece cannot make that move"
	case Redesign, Pass:
		if p.Phase() != 1 {
			return "a design change comes after the action"
		}
		return "not a valid design change"
	}
	return "not a move of this game"
}
