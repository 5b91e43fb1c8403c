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
// again"), or words a disguise ("N e3 swaps places with P e2, then P d2")
// and lists what the last move made on p took off the board, in the order
// it happened (face.Describer): captures, falls and revenge during its
// resolution, then self-captures and vanished Bishops: "r a8", "P a8
// self-capture", "B* c4 vanished".
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
	if w := disguiseWords(p); w != "" {
		out = append(out, w)
	}
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

// disguiseWords words the last move made on p if it is a disguise: the
// disguised piece and its place, then the pawns it swaps places with in
// turn ("N e3 swaps places with P e2, then P d2"); "" for any other move.
func disguiseWords(p *rules.Position) string {
	m, _, ok := p.LastMove()
	if !ok {
		return ""
	}
	d, ok := decode(m)
	if !ok || d.kind != kDisguise {
		return ""
	}
	z, ok := hooksOf(p)
	if !ok {
		return ""
	}
	q := p.Clone()
	q.Unmake()
	e := z.newEngine(q)
	var cbuf [maxLinks + 2]loc
	chain, ok := e.chainOf(&d, q.Turn(), cbuf[:0])
	if !ok {
		return ""
	}
	v := q.Variant()
	text := func(l loc) string {
		sq := sqOf(int(l.b))
		st := Stack(q, sq)
		if int(l.i) >= len(st) {
			return place(int(l.b), int(l.i))
		}
		return PieceText(v, st[l.i]) + " " + place(int(l.b), int(l.i))
	}
	pawns := make([]string, len(chain)-1)
	for k, l := range chain[1:] {
		pawns[k] = text(l)
	}
	return text(chain[0]) + " swaps places with " + strings.Join(pawns, ", then ")
}
