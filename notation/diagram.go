package notation

import (
	"strings"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// Diagram draws the board as text, seen from side c: FEN letters for
// pieces, '.' for empty squares, '#' for holes, rank numbers on the left and
// file letters below. In a ranked variant (Vazir) each piece's rank follows
// its letter ("r5").
func Diagram(p *rules.Position, c rules.Color) string {
	v := p.Variant()
	b := v.Board()
	ranked := v.Spec().Ranked
	var sb strings.Builder
	for i := 0; i < b.Ranks; i++ {
		r := b.Ranks - 1 - i
		if c == rules.Black {
			r = i
		}
		sb.WriteString(pad(r+1, 2))
		sb.WriteByte(' ')
		for j := 0; j < b.Files; j++ {
			f := j
			if c == rules.Black {
				f = b.Files - 1 - j
			}
			pc := p.At(geom.Sq(f, r))
			sb.WriteByte(' ')
			switch {
			case pc == rules.Wall:
				sb.WriteByte('#')
			case pc == rules.Empty:
				sb.WriteByte('.')
			default:
				sb.WriteByte(v.PieceLetter(pc))
				if ranked {
					sb.WriteByte(byte('0' + pc.Attr()%10))
					continue
				}
			}
			if ranked {
				sb.WriteByte(' ')
			}
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("   ")
	for j := 0; j < b.Files; j++ {
		f := j
		if c == rules.Black {
			f = b.Files - 1 - j
		}
		sb.WriteByte(' ')
		sb.WriteByte(geom.FileName(f))
		if ranked {
			sb.WriteByte(' ')
		}
	}
	sb.WriteByte('\n')
	if !ranked {
		return sb.String()
	}
	lines := strings.Split(sb.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func pad(n, w int) string {
	s := strings.Repeat(" ", w)
	d := []byte{}
	for n > 0 {
		d = append([]byte{byte('0' + n%10)}, d...)
		n /= 10
	}
	return s[:max(0, w-len(d))] + string(d)
}
