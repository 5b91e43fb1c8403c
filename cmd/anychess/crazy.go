package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant/crazy"
)

// Crazy Chess in the terminal: stacks, risen Bishops, denial and the
// pieces a move removed.

// isCrazy reports whether p is a Crazy Chess position.
func isCrazy(p *rules.Position) bool {
	return p.Variant().Name() == crazy.Name
}

// stackCell returns the text of square sq of a Crazy Chess position in a
// board diagram: the base's letter, "*" after a risen Bishop, and the
// number of passengers after a Rook that carries some ("R2").
func stackCell(p *rules.Position, sq geom.Square) string {
	st := crazy.Stack(p, sq)
	if len(st) == 0 {
		return "."
	}
	cell := crazy.PieceText(p.Variant(), st[0])
	if len(st) > 1 {
		cell += strconv.Itoa(len(st) - 1)
	}
	return cell
}

// stackLegend lists the stacks of a Crazy Chess position, bottom to top,
// and explains the marks: "stacks, bottom to top: a1 R N p; e4 r B".
func stackLegend(p *rules.Position) string {
	v := p.Variant()
	var stacks []string
	risen := false
	for r := range 8 {
		for f := range 8 {
			sq := geom.Sq(f, r)
			st := crazy.Stack(p, sq)
			for _, pc := range st {
				risen = risen || crazy.Risen(pc)
			}
			if len(st) < 2 {
				continue
			}
			parts := []string{sq.String()}
			for _, pc := range st {
				parts = append(parts, crazy.PieceText(v, pc))
			}
			stacks = append(stacks, strings.Join(parts, " "))
		}
	}
	var sb strings.Builder
	if len(stacks) > 0 {
		fmt.Fprintf(&sb, "stacks, bottom to top (R2: a rook carrying 2): %s\n", strings.Join(stacks, "; "))
	}
	if risen {
		sb.WriteString("B*: a risen bishop, gone after its owner's next turn\n")
	}
	d := crazy.DenialOf(p)
	fmt.Fprintf(&sb, "denial right: %s", d.Holder)
	if d.Immune {
		fmt.Fprintf(&sb, "; %s's next move cannot be denied", d.ImmuneSide)
	}
	fmt.Fprintf(&sb, "; denials so far: %d\n", d.Used)
	return sb.String()
}

// denyMove returns the denial among p's legal moves, if there is one.
func denyMove(p *rules.Position) (rules.Move, bool) {
	for _, m := range p.LegalMoves(nil) {
		if crazy.IsDeny(m) {
			return m, true
		}
	}
	return rules.NoMove, false
}

// removalsText describes what the last move made on p removed (captures,
// falls, revenge, self-captures, vanished bishops), or "" if nothing.
func removalsText(p *rules.Position) string {
	rem := crazy.Removals(p)
	if len(rem) == 0 {
		return ""
	}
	v := p.Variant()
	var parts []string
	for _, r := range rem {
		t := fmt.Sprintf("%c on %s", v.PieceLetter(r.Piece), r.Square)
		switch r.Cause {
		case crazy.SelfCapture:
			t += " (self-captured)"
		case crazy.Vanished:
			t += " (vanished)"
		}
		parts = append(parts, t)
	}
	return "removed: " + strings.Join(parts, ", ")
}
