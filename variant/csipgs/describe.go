package csipgs

import (
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

// DescribePly says nothing more of a ply than its move (face.Describer):
// what a player of a hidden game learns of the opponent's plies is the
// view's.
func (Face) DescribePly(*rules.Position) []string { return nil }
