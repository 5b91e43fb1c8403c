package vazir

import (
	"fmt"
	"strconv"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
)

// Face is Vazir's face (package face): the catalog attaches it to the
// variant.
type Face struct{}

// Describe describes the extra state of p (face.Describer): every piece's
// rank, and where the turn stands (the try counter, the extra king move).
func (Face) Describe(p *rules.Position) face.Description {
	var d face.Description
	v := p.Variant()
	for _, sq := range v.Board().Squares() {
		pc := p.At(sq)
		if !pc.IsPiece() {
			continue
		}
		d.Squares = append(d.Squares, face.Square{Square: sq.String(), Label: strconv.Itoa(int(pc.Attr())),
			Mark: "rank-" + pc.Color().String()})
	}
	switch {
	case p.Phase() == PhaseExtra:
		d.Turn = "extra king move (every try failed while in check)"
	case p.Counter() > 0:
		d.Turn = fmt.Sprintf("try %d of %d (%d failed)", p.Counter()+1, mptOf(v), p.Counter())
	}
	return d
}

// DescribePly says nothing more of a ply than its move and outcome
// (face.Describer).
func (Face) DescribePly(*rules.Position) []string { return nil }
