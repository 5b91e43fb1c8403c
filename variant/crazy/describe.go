package crazy

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// Describe describes the extra state of p (face.Describer): every stack
// (its label the number of passengers, after "*" where the base is a
// risen Bishop), every risen Bishop, and the denial bookkeeping.
func (Face) Describe(p *rules.Position) face.Description {
	var d face.Description
	v := p.Variant()
	risen := false
	for r := range 8 {
		for f := range 8 {
			sq := geom.Sq(f, r)
			st := Stack(p, sq)
			if len(st) == 0 {
				continue
			}
			for _, pc := range st {
				risen = risen || Risen(pc)
			}
			base := Risen(st[0])
			if len(st) < 2 && !base {
				continue
			}
			s := face.Square{Square: sq.String(), Mark: "risen", Label: "*",
				Title: "a risen bishop, gone after its owner's next turn"}
			if len(st) > 1 {
				parts := make([]string, len(st))
				for i, pc := range st {
					parts[i] = PieceText(v, pc)
				}
				s.Mark, s.Label = "stack", strconv.Itoa(len(st)-1)
				if base {
					s.Label = "*" + s.Label
				}
				s.Title = strings.Join(parts, " ") + " (bottom to top)"
			}
			d.Squares = append(d.Squares, s)
		}
	}
	den := DenialOf(p)
	d.Counters = append(d.Counters,
		face.Counter{Name: "denial right", Value: den.Holder.String()},
		face.Counter{Name: "denials so far", Value: strconv.Itoa(den.Used)})
	if den.Immune {
		d.Notes = append(d.Notes, den.ImmuneSide.String()+"'s next move cannot be denied")
	}
	if slices.Contains(p.LegalMoves(nil), denyMove) {
		d.Notes = append(d.Notes, p.Turn().String()+" may deny the last move (DENY): it is undone, and its player moves again")
	}
	if risen {
		d.Notes = append(d.Notes, "*: a risen bishop, gone after its owner's next turn")
	}
	return d
}

// DescribePly says what a denial undid ("undid Nb1-c3; white moves
// again"), or lists what the last move made on p took off the board, in
// the order it happened (face.Describer): captures, falls and revenge
// during its resolution, then self-captures and vanished Bishops: "r a8",
// "P a8 self-capture", "B* c4 vanished".
func (Face) DescribePly(p *rules.Position) []string {
	if m, _, ok := p.LastMove(); ok && IsDeny(m) {
		// The denied move is the one before the denial, made in the
		// position before it.
		q := p.Clone()
		q.Unmake()
		denied, _, ok := q.LastMove()
		if !ok {
			return nil
		}
		q.Unmake()
		return []string{fmt.Sprintf("undid %s; %s moves again", FormatMove(q, denied), p.Turn())}
	}
	var out []string
	for _, r := range Removals(p) {
		text := PieceText(p.Variant(), r.Piece) + " " + r.Square.String()
		switch r.Cause {
		case SelfCapture:
			text += " self-capture"
		case Vanished:
			text += " vanished"
		}
		out = append(out, text)
	}
	return out
}
