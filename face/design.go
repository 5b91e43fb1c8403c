package face

import (
	"github.com/anychess/anychess/rules"
)

// Design is a piece design priced by the variant's rules, as plain data.
type Design struct {
	Design     string   `json:"design"`     // the canonical text
	Price      int      `json:"price"`      // what a piece of it costs, rounded up
	Exact      string   `json:"exact"`      // the cost before rounding, a reduced fraction
	Decimal    string   `json:"-"`          // the same as a decimal
	ColorBound bool     `json:"colorbound"` // every move keeps the square colour
	Royal      bool     `json:"royal"`
	Relay      bool     `json:"-"`
	Powers     []string `json:"-"`       // the powers after expansion of shortcuts
	Diagram    string   `json:"diagram"` // its moves from the centre of an empty board
}

// DesignError is a design the rules refuse: the text, the byte offset of
// the fault, and what is wrong; Err is the variant's own error.
type DesignError struct {
	Input string
	Pos   int
	Msg   string
	Err   error
}

// Error returns the variant's error text.
func (e *DesignError) Error() string { return e.Err.Error() }

// Unwrap returns the variant's error.
func (e *DesignError) Unwrap() error { return e.Err }

// Designer is implemented by the face of a variant whose piece types the
// players design.
type Designer interface {
	// PriceDesign prices the design text under v's options (v is the
	// variant, configured for a game), drawing its moves on an empty board
	// of size x size (odd, 3..15). A design the rules refuse gives an error,
	// a *DesignError where the fault has a place in the text.
	PriceDesign(v *rules.Variant, text string, size int) (Design, error)
	// PutDesign returns the text of the move that puts design, a design
	// PriceDesign accepts (its canonical text), into the slot named slot
	// (the letter of the type the slot holds, as the description's Types
	// give it), under the letter the rules choose; an error for a slot
	// that cannot be named so.
	PutDesign(slot, design string) (string, error)
}

// DesignerOf returns the Designer of v's face, if it has one.
func DesignerOf(v *rules.Variant) (Designer, bool) {
	d, ok := v.Face().(Designer)
	return d, ok
}

// FirstDesigner returns the first of vs whose face is a Designer.
func FirstDesigner(vs []*rules.Variant) (*rules.Variant, Designer, bool) {
	for _, v := range vs {
		if d, ok := DesignerOf(v); ok {
			return v, d, true
		}
	}
	return nil, nil, false
}
