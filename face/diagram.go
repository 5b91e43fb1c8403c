package face

import (
	"fmt"
	"strings"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// DiagramOptions say how Diagram draws a board.
type DiagramOptions struct {
	// Labels are texts written after the letter of the piece on a square
	// (a rank, a number of passengers): Labels(v, p) gives the variant's.
	Labels map[geom.Square]string
	// Marked squares are drawn bracketed ("[N]"); only with Frame.
	Marked geom.Set
	// Frame draws file letters above and below and rank numbers on both
	// sides (the terminal game); without it, rank numbers on the left and
	// file letters below.
	Frame bool
}

// Labels returns the labels the variant v's description of p puts on
// squares (face.Describe), by square, for Diagram.
func Labels(v *rules.Variant, p *rules.Position) map[geom.Square]string {
	out := map[geom.Square]string{}
	b := p.Variant().Board()
	for _, s := range Describe(v, p).Squares {
		if sq, err := b.ParseSquare(s.Square); err == nil && s.Label != "" {
			out[sq] = s.Label
		}
	}
	return out
}

// Diagram draws p as text seen from side c, on a board of any size: FEN
// letters for pieces, each followed by its label if it has one, '.' for
// empty squares and '#' for holes. Cells are as wide as the longest label
// needs.
func Diagram(p *rules.Position, c rules.Color, o DiagramOptions) string {
	v := p.Variant()
	b := v.Board()
	file := func(j int) int {
		if c == rules.Black {
			return b.Files - 1 - j
		}
		return j
	}
	wide := 0
	for _, l := range o.Labels {
		wide = max(wide, len(l))
	}
	cellText := func(sq geom.Square) string {
		pc := p.At(sq)
		cell := "."
		switch {
		case pc == rules.Wall:
			cell = "#"
		case pc != rules.Empty:
			cell = string(v.PieceLetter(pc)) + o.Labels[sq]
		}
		return cell + strings.Repeat(" ", max(0, 1+wide-len(cell)))
	}
	var sb strings.Builder
	files := func(lead string) {
		sb.WriteString(lead)
		for j := 0; j < b.Files; j++ {
			sb.WriteByte(' ')
			sb.WriteByte(geom.FileName(file(j)))
			if o.Frame && j < b.Files-1 {
				sb.WriteString(strings.Repeat(" ", 1+wide))
			} else if !o.Frame {
				sb.WriteString(strings.Repeat(" ", wide))
			}
		}
		sb.WriteByte('\n')
	}
	if o.Frame {
		files("   ")
	}
	for i := 0; i < b.Ranks; i++ {
		r := b.Ranks - 1 - i
		if c == rules.Black {
			r = i
		}
		fmt.Fprintf(&sb, "%2d ", r+1)
		for j := 0; j < b.Files; j++ {
			sq := geom.Sq(file(j), r)
			switch {
			case !o.Frame:
				sb.WriteString(" " + cellText(sq))
			case o.Marked.Has(sq):
				sb.WriteString("[" + cellText(sq) + "]")
			default:
				sb.WriteString(" " + cellText(sq) + " ")
			}
		}
		if o.Frame {
			fmt.Fprintf(&sb, " %d", r+1)
		}
		sb.WriteByte('\n')
	}
	if o.Frame {
		files("   ")
		return sb.String()
	}
	files("   ")
	lines := strings.Split(sb.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
