// Package betza parses and prints piece movements in Betza's funny notation,
// in the subset documented below, and expands them into move vectors.
//
// A description is a sequence of components. Each component is zero or more
// lower-case modifiers followed by an atom, an optional doubling of the atom
// (a rider) or a range (a limited rider):
//
//	component := { modifier } atom [ atom | range ]
//	range     := digit [ digit ]      (1..15; 1 is a plain leap)
//
// Atoms, with the leap each makes (in files, ranks):
//
//	W (1,0) wazir       F (1,1) ferz       D (2,0) dabbaba
//	N (2,1) knight      A (2,2) alfil      H (3,0) threeleaper
//	L (3,1) long knight (C is an alias)    J (3,2) (Z is an alias)
//	G (3,3) tripper
//
// Shortcuts: K = WF, R = WW, B = FF, Q = RB. A doubled leaper atom is a rider
// that repeats the leap in one direction over empty squares (WW, NN); KK is
// Q. A range limits a rider to that many steps (R4, NN2, K2). Riders of R, B
// and Q cannot be doubled again.
//
// Modifiers:
//
//	m   move only, to an empty square        c   capture only
//	f b l r   forward, backward, left, right (from the owner's side)
//	v s       vertical (f+b) and sideways (l+r); on oblique atoms v is
//	          narrow (long leg vertical) and s is wide
//	h         neutral, pairs with another direction ("fh" = "f")
//	n   lame: the path must be empty (D, A, H, G: the squares between;
//	    N: the orthogonal neighbour in the direction of the long leg)
//	i   initial: only from the piece's initial ranks (see package rules)
//	j   skip: on a rider, the first square of each line is passed over; the
//	    piece can neither stop nor capture there, and the line is blocked if
//	    that square holds an enemy piece the mover could capture. With
//	    capture immunity this expresses the Chatrang (Ludii 6) Elephant, jB.
//	p   hop: on a rider, the piece goes along its line over empty squares
//	    to the first piece (the screen, of either side), hops over it, and
//	    goes on over empty squares beyond it, where it may stop, to the
//	    next piece, which it may capture. The xiangqi cannon is mRcpR.
//
// Direction letters follow the extended Betza convention. Adjacent letters
// pair up when they are the same letter or one is vertical (f b v h) and the
// other horizontal (l r s h); a pair is one term, a lone letter another.
// The directions of a component are the union of its terms. On orthogonal
// atoms the two letters of a pair also add up (fs = f + s). On diagonal and
// oblique atoms a pair is the intersection of its letters (fl is the single
// forward-left diagonal; fs on N is the two forward wide moves); a doubled
// letter on an oblique atom means the narrow (ff, bb) or wide (ll, rr) pair.
// A lone f on an oblique atom is its four forward moves. Without direction
// letters a component moves in every direction of its atom; without m or c
// it both moves and captures.
//
// Grasshoppers (g), multi-leg moves (a) and other XBetza extensions are not
// supported and are reported as errors that point at the character.
package betza

import (
	"fmt"
	"slices"
	"strings"
)

// Mode is the set of things a move component may do at its destination.
type Mode uint8

// The modes. A component without m or c has both.
const (
	Move    Mode = 1 << iota // m: go to an empty square
	Capture                  // c: capture an enemy piece
)

// Flags are the special modifiers of a component.
type Flags uint8

// The flags.
const (
	Lame    Flags = 1 << iota // n: the path must be empty
	Initial                   // i: only from the initial ranks
	Skip                      // j: pass over the first square of a line
	Hop                       // p: a rider that must hop over one piece of a line
)

// A Vector is one move direction of a component, in files (DX, positive to
// the right of White) and ranks (DY, positive forward for White). For Black
// the vector is turned by 180 degrees.
type Vector struct{ DX, DY int8 }

// A Leg is one elementary kind of move: one vector with one mode, a range
// and flags. A piece's movement is a set of legs.
type Leg struct {
	Vector
	Range uint8 // 1: leap; 0: unlimited rider; n > 1: rider of at most n steps
	Mode  Mode  // exactly one of Move or Capture
	Flags Flags
}

// Rider reports whether the leg repeats its step.
func (l Leg) Rider() bool { return l.Range != 1 }

// Movement is the parsed movement of a piece: a sorted set of legs without
// duplicates. Two descriptions mean the same movement exactly when their
// Movements are equal.
type Movement struct {
	Legs []Leg
}

// Equal reports whether m and o describe the same moves.
func (m Movement) Equal(o Movement) bool { return slices.Equal(m.Legs, o.Legs) }

// SyntaxError reports a description that is outside the supported subset.
type SyntaxError struct {
	Input string // the whole description
	Pos   int    // byte offset of the offending character
	Msg   string // what is wrong
}

func (e *SyntaxError) Error() string {
	if e.Pos >= len(e.Input) {
		return fmt.Sprintf("betza %q: at end: %s", e.Input, e.Msg)
	}
	return fmt.Sprintf("betza %q: at %d (%q): %s", e.Input, e.Pos+1, e.Input[e.Pos], e.Msg)
}

type atomClass uint8

const (
	orthogonal atomClass = iota
	diagonal
	oblique
)

// atoms maps each atom letter to its leap (long, short).
var atoms = map[byte][2]int8{
	'W': {1, 0}, 'F': {1, 1}, 'D': {2, 0}, 'N': {2, 1}, 'A': {2, 2},
	'H': {3, 0}, 'L': {3, 1}, 'C': {3, 1}, 'J': {3, 2}, 'Z': {3, 2}, 'G': {3, 3},
}

func classOf(a [2]int8) atomClass {
	switch {
	case a[1] == 0:
		return orthogonal
	case a[0] == a[1]:
		return diagonal
	}
	return oblique
}

// symmetric returns the distinct vectors of an atom.
func symmetric(a [2]int8) []Vector {
	var out []Vector
	for _, v := range []Vector{
		{a[0], a[1]}, {a[1], a[0]}, {-a[0], a[1]}, {-a[1], a[0]},
		{a[0], -a[1]}, {a[1], -a[0]}, {-a[0], -a[1]}, {-a[1], -a[0]},
	} {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func abs8(x int8) int8 {
	if x < 0 {
		return -x
	}
	return x
}

// letterHas reports whether vector v lies in the direction of one letter.
func letterHas(c byte, cls atomClass, v Vector) bool {
	switch c {
	case 'f':
		return v.DY > 0
	case 'b':
		return v.DY < 0
	case 'l':
		return v.DX < 0
	case 'r':
		return v.DX > 0
	case 'v':
		switch cls {
		case orthogonal:
			return v.DX == 0
		case oblique:
			return abs8(v.DY) > abs8(v.DX)
		}
		return true
	case 's':
		switch cls {
		case orthogonal:
			return v.DY == 0
		case oblique:
			return abs8(v.DX) > abs8(v.DY)
		}
		return true
	}
	return true // h
}

// termHas reports whether v lies in the direction term t (one or two letters).
func termHas(t string, cls atomClass, v Vector) bool {
	if len(t) == 1 {
		return letterHas(t[0], cls, v)
	}
	a, b := t[0], t[1]
	if cls == orthogonal {
		return letterHas(a, cls, v) || letterHas(b, cls, v)
	}
	if a == b && cls == oblique {
		switch a {
		case 'f', 'b':
			b = 'v'
		case 'l', 'r':
			b = 's'
		}
	}
	return letterHas(a, cls, v) && letterHas(b, cls, v)
}

const (
	verticals   = "fbvh"
	horizontals = "lrsh"
)

// terms splits a run of direction letters into terms by the pairing rule.
func terms(dirs string) []string {
	var out []string
	for i := 0; i < len(dirs); i++ {
		c := dirs[i]
		if i+1 < len(dirs) {
			c2 := dirs[i+1]
			if c2 == c || (strings.IndexByte(verticals, c) >= 0 && strings.IndexByte(horizontals, c2) >= 0) ||
				(strings.IndexByte(horizontals, c) >= 0 && strings.IndexByte(verticals, c2) >= 0) {
				out = append(out, string([]byte{c, c2}))
				i++
				continue
			}
		}
		out = append(out, string(c))
	}
	return out
}

// selectDirs returns the vectors of atom a picked by the direction runs.
func selectDirs(a [2]int8, runs []string) []Vector {
	all := symmetric(a)
	if len(runs) == 0 {
		return all
	}
	cls := classOf(a)
	var ts []string
	for _, r := range runs {
		ts = append(ts, terms(r)...)
	}
	var out []Vector
	for _, v := range all {
		for _, t := range ts {
			if termHas(t, cls, v) {
				out = append(out, v)
				break
			}
		}
	}
	return out
}

// Parse reads a Betza description. An empty description is a piece that
// cannot move.
func Parse(s string) (Movement, error) {
	var legs []Leg
	i := 0
	for i < len(s) {
		start := i
		var mode Mode
		var flags Flags
		var runs []string // runs of adjacent direction letters
		inRun := false
		for i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
			c := s[i]
			isDir := strings.IndexByte("fblrvsh", c) >= 0
			switch {
			case isDir:
				if inRun {
					runs[len(runs)-1] += string(c)
				} else {
					runs = append(runs, string(c))
				}
			case c == 'm':
				mode |= Move
			case c == 'c':
				mode |= Capture
			case c == 'n':
				flags |= Lame
			case c == 'i':
				flags |= Initial
			case c == 'j':
				flags |= Skip
			case c == 'p':
				flags |= Hop
			case c == 'g':
				return Movement{}, &SyntaxError{s, i, "grasshoppers (g) are not supported"}
			case c == 'a':
				return Movement{}, &SyntaxError{s, i, "multi-leg moves (a) are not supported"}
			case c == 'e':
				return Movement{}, &SyntaxError{s, i, "e is not supported; en passant is a rule of the variant's pawn"}
			default:
				return Movement{}, &SyntaxError{s, i, "unknown modifier"}
			}
			inRun = isDir
			i++
		}
		if i == len(s) {
			if i == start {
				break
			}
			return Movement{}, &SyntaxError{s, i, "modifiers without an atom"}
		}
		atomPos := i
		c := s[i]
		i++
		var parts [][2]int8 // leaps making up this atom
		rider := false
		switch c {
		case 'K':
			parts = [][2]int8{{1, 0}, {1, 1}}
		case 'R':
			parts, rider = [][2]int8{{1, 0}}, true
		case 'B':
			parts, rider = [][2]int8{{1, 1}}, true
		case 'Q':
			parts, rider = [][2]int8{{1, 0}, {1, 1}}, true
		default:
			a, ok := atoms[c]
			if !ok {
				if c >= '0' && c <= '9' {
					return Movement{}, &SyntaxError{s, atomPos, "range without an atom"}
				}
				return Movement{}, &SyntaxError{s, atomPos, "unknown atom"}
			}
			parts = [][2]int8{a}
		}
		rng := uint8(1)
		if rider {
			rng = 0
		}
		switch {
		case i < len(s) && s[i] == c:
			if rider {
				return Movement{}, &SyntaxError{s, i, "a rider cannot be doubled"}
			}
			rng = 0
			i++
		case i < len(s) && s[i] >= '0' && s[i] <= '9':
			p := i
			n := int(s[i] - '0')
			i++
			if i < len(s) && s[i] >= '0' && s[i] <= '9' {
				n = n*10 + int(s[i]-'0')
				i++
			}
			if n < 1 || n > 15 {
				return Movement{}, &SyntaxError{s, p, "range must be from 1 to 15"}
			}
			rng = uint8(n)
		}
		if flags&Skip != 0 && rng == 1 {
			return Movement{}, &SyntaxError{s, start + strings.IndexByte(s[start:atomPos], 'j'), "j (skip) needs a rider"}
		}
		if flags&Hop != 0 {
			hp := start + strings.IndexByte(s[start:atomPos], 'p')
			if rng == 1 {
				return Movement{}, &SyntaxError{s, hp, "p (hop) needs a rider"}
			}
			if flags&(Skip|Lame) != 0 {
				return Movement{}, &SyntaxError{s, hp, "p (hop) cannot be combined with j or n"}
			}
		}
		if flags&Lame != 0 {
			np := start + strings.IndexByte(s[start:atomPos], 'n')
			if rng != 1 {
				return Movement{}, &SyntaxError{s, np, "n (lame) is supported on leapers only"}
			}
			for _, a := range parts {
				if a == [2]int8{1, 0} || a == [2]int8{1, 1} {
					return Movement{}, &SyntaxError{s, np, "n (lame) has no path to block on W or F"}
				}
				if classOf(a) == oblique && a != [2]int8{2, 1} {
					return Movement{}, &SyntaxError{s, np, "n (lame) is defined for N, D, A, H and G only"}
				}
			}
		}
		if mode == 0 {
			mode = Move | Capture
		}
		for _, a := range parts {
			for _, v := range selectDirs(a, runs) {
				for _, md := range []Mode{Move, Capture} {
					if mode&md != 0 {
						legs = append(legs, Leg{Vector: v, Range: rng, Mode: md, Flags: flags})
					}
				}
			}
		}
	}
	return normalize(legs), nil
}

func normalize(legs []Leg) Movement {
	slices.SortFunc(legs, compareLegs)
	return Movement{Legs: slices.Compact(legs)}
}

func compareLegs(a, b Leg) int {
	ka, kb := legKey(a), legKey(b)
	switch {
	case ka < kb:
		return -1
	case ka > kb:
		return 1
	}
	return 0
}

// legKey orders legs by atom, range, flags, mode and direction.
func legKey(l Leg) uint64 {
	long, short := abs8(l.DX), abs8(l.DY)
	if short > long {
		long, short = short, long
	}
	rng := uint64(l.Range)
	if rng == 0 {
		rng = 16
	}
	return uint64(atomOrder(long, short))<<40 | rng<<32 | uint64(l.Flags)<<24 | uint64(l.Mode)<<16 |
		uint64(uint8(l.DY+8))<<8 | uint64(uint8(l.DX+8))
}

const atomOrderLetters = "WFDNAHLJG"

func atomOrder(long, short int8) int {
	for i, c := range []byte(atomOrderLetters) {
		a := atoms[c]
		if a[0] == long && a[1] == short {
			return i
		}
	}
	return len(atomOrderLetters)
}

// Vectors returns the distinct vectors of the movement that have the given
// mode, in order.
func (m Movement) Vectors(mode Mode) []Vector {
	var out []Vector
	for _, l := range m.Legs {
		if l.Mode&mode != 0 && !slices.Contains(out, l.Vector) {
			out = append(out, l.Vector)
		}
	}
	return out
}

// Atom returns the atom letter of a vector, or 0 if no atom leaps it.
func Atom(v Vector) byte {
	long, short := abs8(v.DX), abs8(v.DY)
	if short > long {
		long, short = short, long
	}
	if i := atomOrder(long, short); i < len(atomOrderLetters) {
		return atomOrderLetters[i]
	}
	return 0
}
