package csipgs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
)

// Describe describes the extra state of p, a position or a player's view
// (face.Describer): the phase of the turn, each side's treasury and
// reserve ("hidden" where a view under HideEconomy does not show them),
// and the types in play: each side's designs with their prices, then the
// types no slot holds.
func (Face) Describe(p *rules.Position) face.Description {
	var d face.Description
	if _, ok := ensure(p); !ok {
		return d
	}
	if DesignPhase(p) {
		d.Phase = "design phase"
		d.Notes = append(d.Notes, `change a design (&Q>Y=FfR, &Y>P, or "design" for the editor) or keep them (&-)`)
	}
	prices := map[byte]int{}
	for _, td := range TypeTable(p) {
		prices[td.Letter] = td.Price
	}
	inSlot := map[byte]bool{}
	for c := rules.White; c <= rules.Black; c++ {
		side := c.String()
		slots := DesignSlots(p, c)
		if slots[0] == '?' {
			d.Counters = append(d.Counters,
				face.Counter{Side: side, Name: "treasury", Value: "hidden"},
				face.Counter{Side: side, Name: "reserve", Value: "hidden"},
				face.Counter{Side: side, Name: "designs", Value: "hidden"})
			continue
		}
		d.Counters = append(d.Counters, face.Counter{Side: side, Name: "treasury", Value: zorkmids(Treasury(p, c)), Unit: "zorkmid"})
		if p.Turn() == c && !DesignPhase(p) {
			d.Counters = append(d.Counters, face.Counter{Side: side, Name: "to spend with this turn's credit", Value: zorkmids(Available(p)), Unit: "zorkmid"})
		}
		d.Counters = append(d.Counters, face.Counter{Side: side, Name: "reserve", Value: reserveText(p, c)})
		var seen []byte
		for _, l := range slots {
			if l == 0 || slices.Contains(seen, l) {
				continue
			}
			seen = append(seen, l)
			inSlot[l] = true
			d.Types = append(d.Types, face.PieceType{Side: side, Letter: string(l), Movement: DesignOf(p, l), Price: prices[l]})
		}
	}
	for _, td := range TypeTable(p) {
		if !inSlot[td.Letter] {
			d.Types = append(d.Types, face.PieceType{Letter: string(td.Letter), Movement: td.Design, Price: td.Price})
		}
	}
	return d
}

// zorkmids writes an amount of money: "1 zorkmid", "5 zorkmids".
func zorkmids(n int) string {
	if n == 1 {
		return "1 zorkmid"
	}
	return strconv.Itoa(n) + " zorkmids"
}

// reserveText lists c's reserve: "N P P", or "-".
func reserveText(p *rules.Position, c rules.Color) string {
	var parts []string
	v := p.Variant()
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		for range p.Pocket(c, t) {
			parts = append(parts, string(v.Letter(t)))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

// DescribePly words the last ply made on p where its move is of csipgs's
// own kind (face.Describer): a buy ("buys N for 3 zorkmids"), a transfer
// ("places N from the reserve on e2"), a new design ("designs Y as FfR in
// place of Q"), a design taken again from the type table ("re-adopts P
// (fmWfcF) in place of Y") and keeping the designs ("keeps the designs").
// A piece move says nothing more than its move. The words tell the true
// position's ply: what a player of a hidden game learns of the opponent's
// plies is the view's, so a caller gives them to no one while such a game
// is played.
func (Face) DescribePly(p *rules.Position) []string {
	m, _, ok := p.LastMove()
	if !ok {
		return nil
	}
	if _, ok := ensure(p); !ok {
		return nil
	}
	switch KindOf(m) {
	case Buy:
		q := p.Clone()
		q.Unmake()
		return []string{fmt.Sprintf("buys %c for %s", 'A'+m.Payload()&31-1, zorkmids(Cost(q, m)))}
	case Transfer:
		return []string{fmt.Sprintf("places %c from the reserve on %s", 'A'+int(m.Promo())-1, m.To())}
	case Pass:
		return []string{"keeps the designs"}
	case Redesign:
		q := p.Clone()
		q.Unmake()
		slot, l, id := designFields(m)
		if slot >= Slots || l < 1 || l > 26 {
			return nil
		}
		old := DesignSlots(q, q.Turn())[slot]
		letter := byte('A' + l - 1)
		design := DesignOf(p, letter)
		if id != 0 {
			return []string{fmt.Sprintf("designs %c as %s in place of %c", letter, design, old)}
		}
		return []string{fmt.Sprintf("re-adopts %c (%s) in place of %c", letter, design, old)}
	}
	return nil
}
