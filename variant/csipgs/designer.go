package csipgs

import (
	"errors"
	"fmt"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
)

// PriceDesign prices the design text under v's options (face.Designer):
// the price, the exact cost, colour binding, royalty and relay, the
// powers, and the moves from the centre of an empty size x size board.
func (Face) PriceDesign(v *rules.Variant, text string, size int) (face.Design, error) {
	o := DefaultOptions()
	if z, ok := hooksOfVariant(v); ok {
		o = z.o
	}
	pi, err := PriceIn(text, o)
	if err != nil {
		var de *DesignError
		if errors.As(err, &de) {
			return face.Design{}, &face.DesignError{Input: de.Input, Pos: de.Pos, Msg: de.Msg, Err: err}
		}
		return face.Design{}, err
	}
	d := face.Design{Design: pi.Design, Price: pi.Price, Exact: pi.Exact, Decimal: pi.Decimal(),
		ColorBound: pi.ColorBound, Royal: pi.Royal, Relay: pi.Relay, Diagram: pi.Diagram(size)}
	for _, w := range pi.Powers {
		d.Powers = append(d.Powers, fmt.Sprint(w))
	}
	return d, nil
}
