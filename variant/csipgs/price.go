package csipgs

import (
	"fmt"
	"math/big"
)

// Costs are computed exactly in integers (CS-19): a base cost in tenths,
// a direction multiplier in hundredths and a mode multiplier in tenths give
// a power's cost in units of 10^-4 zorkmid; the whole-piece multiplier in
// tenths (0.9 colour-bound, 4 royal, 2 relay) makes the total in units of
// 10^-5 zorkmid.
const (
	powerScale = 10_000
	totalScale = 100_000
)

// dirMul returns the direction multiplier of a power in hundredths.
func dirMul(w Power, o ParseOptions) int64 {
	switch w.Atom.Class() {
	case Orthogonal:
		switch w.Dir {
		case Forward, Sideways:
			return 50
		case Backward:
			return 20
		}
	case Diagonal:
		switch w.Dir {
		case Forward:
			if w.Atom == AtomG && o.GForwardHalf {
				return 50
			}
			return 70
		case Backward:
			return 40
		}
	case Oblique:
		switch w.Dir {
		case Forward:
			return 70
		case Backward:
			return 40
		case Narrow, Wide:
			return 50
		case FwdNarrow, FwdWide:
			return 35
		case BackNarrow, BackWide:
			return 20
		}
	}
	return 100
}

// powerCost returns the cost of one power in units of 10^-4 zorkmid
// (CS-17: base x direction x mode).
func powerCost(w Power, o ParseOptions) int64 {
	mode := int64(10)
	if w.Mode != MoveOrCapture {
		mode = 6
	}
	return atomInfo[w.Atom].base * dirMul(w, o) * mode
}

// exactCost returns the design's cost before rounding in units of 10^-5
// zorkmid (CS-18).
func exactCost(d Design, o ParseOptions) int64 {
	var sum int64
	for _, w := range d.Powers {
		sum += powerCost(w, o)
	}
	m := int64(10)
	if d.ColorBound() {
		m = 9
	}
	if d.Royal {
		m *= 4
	}
	if d.Relay {
		m *= 2
	}
	return sum * m
}

// PriceOf returns the price of a design in zorkmids: the exact cost
// rounded up (CS-18), at least 1 for any design with a power.
func PriceOf(d Design, o ParseOptions) int {
	c := exactCost(d, o)
	return int((c + totalScale - 1) / totalScale)
}

// PriceInfo describes a design for people and programs: its price, the
// exact cost before rounding, whether it is colour-bound and royal, and
// its moves.
type PriceInfo struct {
	Design     string   // the canonical design text
	Price      int      // zorkmids, rounded up
	Exact      string   // the exact cost before rounding as a reduced fraction ("297/100", "6")
	ExactRat   *big.Rat // the same as a rational number
	ColorBound bool     // every move keeps the square colour (CS-20)
	Royal      bool
	Relay      bool
	Powers     []Power  // the powers after expansion of shortcuts
	Vectors    []Vector // the move set in White's orientation
}

// Price parses a design and prices it with the default options (CS-16..CS-21).
func Price(design string) (PriceInfo, error) { return PriceWith(design, ParseOptions{}) }

// PriceWith parses and prices a design under the given options.
func PriceWith(design string, o ParseOptions) (PriceInfo, error) {
	d, err := ParseDesignWith(design, o)
	if err != nil {
		return PriceInfo{}, err
	}
	return Info(d, o), nil
}

// PriceIn parses and prices a design as a game under the options o would:
// a relay design is an error wrapping ErrDesign unless o allows relay
// pieces (option Relay, 3.7 A-g).
func PriceIn(design string, o Options) (PriceInfo, error) {
	pi, err := PriceWith(design, o.parseOptions())
	if err != nil {
		return PriceInfo{}, err
	}
	if pi.Relay && !o.Relay {
		return PriceInfo{}, fmt.Errorf("%w: %q is a relay design: a game allows it only with the option Relay=1 (3.7 A-g)", ErrDesign, pi.Design)
	}
	return pi, nil
}

// Info prices a parsed design.
func Info(d Design, o ParseOptions) PriceInfo {
	c := exactCost(d, o)
	r := big.NewRat(c, totalScale)
	return PriceInfo{
		Design:     d.String(),
		Price:      PriceOf(d, o),
		Exact:      r.RatString(),
		ExactRat:   r,
		ColorBound: d.ColorBound(),
		Royal:      d.Royal,
		Relay:      d.Relay,
		Powers:     append([]Power(nil), d.Powers...),
		Vectors:    d.Vectors(),
	}
}

// Decimal returns the exact cost as a decimal ("2.97", "6", "2.268").
func (pi PriceInfo) Decimal() string {
	if pi.ExactRat == nil {
		return ""
	}
	s := pi.ExactRat.FloatString(5)
	for len(s) > 0 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}

// Diagram draws the design's moves from the centre of an empty board of
// the given size (odd, at most 15): "*" the piece, "x" move or capture,
// "m" move only, "c" capture only, "." unreachable. Rank 1 is at the
// bottom, as White sees it.
func (pi PriceInfo) Diagram(size int) string {
	if size < 3 || size > 15 || size%2 == 0 {
		size = 9
	}
	c := size / 2
	grid := make([][]byte, size)
	for y := range grid {
		grid[y] = make([]byte, size)
		for x := range grid[y] {
			grid[y][x] = '.'
		}
	}
	grid[c][c] = '*'
	for _, v := range pi.Vectors {
		x, y := c, c
		for {
			x += int(v.DX)
			y += int(v.DY)
			if x < 0 || y < 0 || x >= size || y >= size {
				break
			}
			mark := byte('x')
			switch {
			case v.Move && !v.Capture:
				mark = 'm'
			case v.Capture && !v.Move:
				mark = 'c'
			}
			old := grid[y][x]
			if old != '.' && old != mark {
				mark = 'x'
			}
			grid[y][x] = mark
			if !v.Rider {
				break
			}
		}
	}
	var out []byte
	for y := size - 1; y >= 0; y-- {
		out = append(out, grid[y]...)
		out = append(out, '\n')
	}
	return string(out)
}

// String summarises the price on one line: "FfR: price 4 (exact 4), not
// colour-bound", "royal-fmG: price 3 (exact 2.268), not colour-bound,
// royal" (and ", relay" for a relay design), as the design editor shows
// it.
func (pi PriceInfo) String() string {
	cb := "not colour-bound"
	if pi.ColorBound {
		cb = "colour-bound"
	}
	if pi.Royal {
		cb += ", royal"
	}
	if pi.Relay {
		cb += ", relay"
	}
	return fmt.Sprintf("%s: price %d (exact %s), %s", pi.Design, pi.Price, pi.Decimal(), cb)
}
