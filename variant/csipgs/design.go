package csipgs

import (
	"errors"
	"fmt"
	"strings"
)

// ErrDesign is wrapped by every error about a design text.
var ErrDesign = errors.New("csipgs: bad design")

// DesignError reports a design text outside the priced Betza subset
// (CS-16, section 3.6): the whole text, the byte offset of the fault and
// the reason.
type DesignError struct {
	Input string // the whole design text
	Pos   int    // byte offset of the offending character (len(Input): at the end)
	Msg   string // what is wrong
}

// Error returns the text, the position of the fault and the reason.
func (e *DesignError) Error() string {
	if e.Pos >= len(e.Input) {
		return fmt.Sprintf("design %q: at end: %s", e.Input, e.Msg)
	}
	return fmt.Sprintf("design %q: at %d (%q): %s", e.Input, e.Pos+1, e.Input[e.Pos], e.Msg)
}

// Unwrap makes errors.Is(err, ErrDesign) true.
func (e *DesignError) Unwrap() error { return ErrDesign }

// Class is the class of a priced atom (CS-16): its modifiers and their
// multipliers depend on it.
type Class uint8

// The atom classes.
const (
	Orthogonal Class = iota // W, D, H, R
	Diagonal                // F, A, G, B
	Oblique                 // N, L, NN
)

// Atom is one priced atom of CS-16. Shortcuts (K, Q) are expanded by the
// parser; doubled atoms WW and FF are read as R and B.
type Atom uint8

// The atoms.
const (
	AtomW  Atom = iota // Wazir, leap (0,1)
	AtomD              // Dabbaba, leap (0,2)
	AtomH              // leap (0,3)
	AtomR              // Rook, orthogonal slider
	AtomF              // Ferz, leap (1,1)
	AtomA              // Alfil, leap (2,2)
	AtomG              // leap (3,3)
	AtomB              // Bishop, diagonal slider
	AtomN              // Knight, leap (1,2)
	AtomL              // Long Knight, leap (1,3)
	AtomNN             // Nightrider, rider of (1,2)
	numAtoms
)

var atomInfo = [numAtoms]struct {
	name  string
	class Class
	a, b  int8 // the leap (a <= b): (0,1) for W, (1,2) for N
	rider bool
	base  int64 // cost in tenths of a zorkmid
}{
	AtomW:  {"W", Orthogonal, 0, 1, false, 15},
	AtomD:  {"D", Orthogonal, 0, 2, false, 15},
	AtomH:  {"H", Orthogonal, 0, 3, false, 15},
	AtomR:  {"R", Orthogonal, 0, 1, true, 50},
	AtomF:  {"F", Diagonal, 1, 1, false, 15},
	AtomA:  {"A", Diagonal, 2, 2, false, 15},
	AtomG:  {"G", Diagonal, 3, 3, false, 15},
	AtomB:  {"B", Diagonal, 1, 1, true, 33},
	AtomN:  {"N", Oblique, 1, 2, false, 30},
	AtomL:  {"L", Oblique, 1, 3, false, 33},
	AtomNN: {"NN", Oblique, 1, 2, true, 55},
}

// String returns the atom's letter(s).
func (a Atom) String() string {
	if a < numAtoms {
		return atomInfo[a].name
	}
	return fmt.Sprintf("Atom(%d)", int(a))
}

// Class returns the class of the atom.
func (a Atom) Class() Class { return atomInfo[a].class }

// Dir is the direction modifier of a power.
type Dir uint8

// The directions. Which ones an atom accepts depends on its class (3.6).
const (
	All        Dir = iota // no direction modifier
	Forward               // f (oblique: the four moves with dy > 0)
	Backward              // b
	Sideways              // s on orthogonal atoms (= rl)
	Narrow                // v on oblique atoms: long leg vertical
	Wide                  // s on oblique atoms: long leg horizontal
	FwdNarrow             // ff on oblique atoms
	FwdWide               // fs on oblique atoms
	BackNarrow            // bb on oblique atoms
	BackWide              // bs on oblique atoms
	numDirs
)

var dirText = [numDirs]string{"", "f", "b", "s", "v", "s", "ff", "fs", "bb", "bs"}

// Mode is the mode modifier of a power.
type Mode uint8

// The modes.
const (
	MoveOrCapture Mode = iota // no modifier
	MoveOnly                  // m
	CaptureOnly               // c
)

// Power is one atom with at most one direction and at most one mode
// modifier (CS-17).
type Power struct {
	Atom Atom
	Dir  Dir
	Mode Mode
}

// String returns the power in canonical form: direction, mode, atom.
func (w Power) String() string {
	s := dirText[w.Dir]
	switch w.Mode {
	case MoveOnly:
		s += "m"
	case CaptureOnly:
		s += "c"
	}
	return s + w.Atom.String()
}

// Design is a parsed design: whole-piece modifiers and the powers whose
// moves it unites.
type Design struct {
	Royal  bool
	Relay  bool
	Powers []Power
	text   string // the canonical text, set by the parser
}

// String returns the design in canonical form: "royal-", "relay-", then
// each written atom with its direction letters (f, b, s for unions on
// orthogonal atoms; v, s, ff, fs, bb, bs on oblique ones) and then its
// mode letter, in the order written; WW is written R, FF B, rl s and fh f.
// Shortcuts K and Q stay as written. A Design built without the parser
// is written power by power.
func (d Design) String() string {
	if d.text != "" {
		return d.text
	}
	var sb strings.Builder
	if d.Royal {
		sb.WriteString("royal-")
	}
	if d.Relay {
		sb.WriteString("relay-")
	}
	for _, w := range d.Powers {
		sb.WriteString(w.String())
	}
	return sb.String()
}

// ParseOptions are the rule options that change which designs are valid
// and what they cost (3.7 A-a, A-c).
type ParseOptions struct {
	// GForwardHalf prices f on the G atom at 0.5 instead of the table's
	// 0.7 (option GForwardMultiplier=0.5, reproducing the seed's prose).
	GForwardHalf bool
	// NoNarrowWideOnNightrider rejects v, s, ff, fs, bb and bs on NN
	// (option NarrowWideOnNightrider=false).
	NoNarrowWideOnNightrider bool
}

// MaxDesignLen bounds the length of a design text.
const MaxDesignLen = 64

// MaxPowers bounds the number of powers of one design (after expansion).
const MaxPowers = 16

// ParseDesign reads a design in the Betza subset of section 3.6:
//
//	design := [ "royal-" ] [ "relay-" ] power { power }
//	power  := prefix atom
//
// Errors are *DesignError values (wrapping ErrDesign) that point at the
// faulty character and say why.
func ParseDesign(s string) (Design, error) { return ParseDesignWith(s, ParseOptions{}) }

// ParseDesignWith is ParseDesign under the given options.
func ParseDesignWith(s string, o ParseOptions) (Design, error) {
	var d Design
	fail := func(pos int, format string, args ...any) (Design, error) {
		return Design{}, &DesignError{Input: s, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
	if len(s) > MaxDesignLen {
		return fail(MaxDesignLen, "longer than %d bytes", MaxDesignLen)
	}
	i := 0
	if strings.HasPrefix(s, "royal-") {
		d.Royal = true
		i += len("royal-")
	}
	if strings.HasPrefix(s[i:], "relay-") {
		d.Relay = true
		i += len("relay-")
	}
	if strings.HasPrefix(s[i:], "royal-") {
		return fail(i, "write royal- before relay-")
	}
	var canon strings.Builder
	canon.WriteString(s[:i])
	for i < len(s) {
		start := i
		// prefix
		var dirs []byte
		var dirPos []int
		mode, modePos := MoveOrCapture, -1
		for i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
			c := s[i]
			switch c {
			case 'f', 'b', 's', 'v', 'h', 'r', 'l':
				dirs = append(dirs, c)
				dirPos = append(dirPos, i)
			case 'm', 'c':
				if modePos >= 0 {
					return fail(i, "a power has at most one of m and c")
				}
				modePos = i
				mode = MoveOnly
				if c == 'c' {
					mode = CaptureOnly
				}
			case 'n', 'j', 'i', 'p', 'g', 'a', 'o', 'z', 'y', 'x', 'q', 't', 'u', 'w', 'e', 'd', 'k':
				return fail(i, "modifier %q is not priced in csipgs (only f b s v h r l m c)", c)
			default:
				return fail(i, "unknown modifier %q", c)
			}
			i++
		}
		if i >= len(s) {
			if start == i {
				break
			}
			return fail(i, "modifiers without an atom")
		}
		c := s[i]
		atomPos := i
		var atoms []Atom
		switch c {
		case 'W':
			atoms = []Atom{AtomW}
			if i+1 < len(s) && s[i+1] == 'W' {
				atoms = []Atom{AtomR}
				i++
			}
		case 'D':
			atoms = []Atom{AtomD}
		case 'H':
			atoms = []Atom{AtomH}
		case 'R':
			atoms = []Atom{AtomR}
		case 'F':
			atoms = []Atom{AtomF}
			if i+1 < len(s) && s[i+1] == 'F' {
				atoms = []Atom{AtomB}
				i++
			}
		case 'A':
			atoms = []Atom{AtomA}
		case 'G':
			atoms = []Atom{AtomG}
		case 'B':
			atoms = []Atom{AtomB}
		case 'N':
			atoms = []Atom{AtomN}
			if i+1 < len(s) && s[i+1] == 'N' {
				atoms = []Atom{AtomNN}
				i++
			}
		case 'L':
			atoms = []Atom{AtomL}
		case 'K':
			atoms = []Atom{AtomW, AtomF}
		case 'Q':
			atoms = []Atom{AtomR, AtomB}
		case 'C', 'J', 'Z':
			return fail(i, "atom %q has no price in csipgs (priced atoms: W D H R F A G B N L, NN, shortcuts K Q)", c)
		default:
			if c >= '0' && c <= '9' {
				return fail(i, "ranges are not priced in csipgs")
			}
			if c == '-' {
				return fail(i, "only royal- and relay- may prefix a design, at its start")
			}
			return fail(i, "unexpected %q; want a modifier or an atom", c)
		}
		i++
		if i < len(s) && s[i] >= '0' && s[i] <= '9' {
			return fail(i, "ranges are not priced in csipgs")
		}
		if i < len(s) && s[i] == c && c != 'W' && c != 'F' && c != 'N' {
			return fail(i, "riders of %c are not priced in csipgs", c)
		}
		var written []Dir
		for _, a := range atoms {
			dl, err := directions(a, dirs)
			if err != "" {
				pos := atomPos
				if len(dirPos) > 0 {
					pos = dirPos[0]
				}
				return fail(pos, "%s on %s: %s", string(dirs), a, err)
			}
			if a == AtomNN && o.NoNarrowWideOnNightrider {
				for _, dr := range dl {
					if dr >= Narrow {
						return fail(dirPos[0], "narrow and wide are not allowed on NN (NarrowWideOnNightrider=false)")
					}
				}
			}
			for _, dr := range dl {
				d.Powers = append(d.Powers, Power{Atom: a, Dir: dr, Mode: mode})
			}
			written = dl
		}
		for _, dr := range written {
			canon.WriteString(dirText[dr])
		}
		switch mode {
		case MoveOnly:
			canon.WriteByte('m')
		case CaptureOnly:
			canon.WriteByte('c')
		}
		switch {
		case len(atoms) == 2 && atoms[0] == AtomW:
			canon.WriteByte('K')
		case len(atoms) == 2:
			canon.WriteByte('Q')
		default:
			tok := atoms[0].String()
			// R after R reads as "RR", which is not a design; WW is.
			if cs := canon.String(); (tok == "R" || tok == "B") && len(cs) > 0 && cs[len(cs)-1] == tok[0] {
				tok = map[string]string{"R": "WW", "B": "FF"}[tok]
			}
			canon.WriteString(tok)
		}
		if len(d.Powers) > MaxPowers {
			return fail(start, "more than %d powers", MaxPowers)
		}
	}
	if len(d.Powers) == 0 {
		return fail(len(s), "a design needs at least one power")
	}
	d.text = canon.String()
	return d, nil
}

// directions reads the direction letters of a prefix for atom a and
// returns the powers' directions (several for a union such as fs on an
// orthogonal atom), or a reason for rejecting them.
func directions(a Atom, dirs []byte) ([]Dir, string) {
	if len(dirs) == 0 {
		return []Dir{All}, ""
	}
	var n [128]int
	for _, c := range dirs {
		n[c]++
	}
	switch a.Class() {
	case Orthogonal:
		if n['v'] > 0 || n['h'] > 0 {
			return nil, "v and h are not priced on orthogonal atoms (use f, b, s or rl)"
		}
		if n['r'] != n['l'] || n['r'] > 1 {
			return nil, "r and l go together (rl = s)"
		}
		if n['r'] == 1 {
			n['s']++
		}
		var out []Dir
		for _, x := range []struct {
			c byte
			d Dir
		}{{'f', Forward}, {'b', Backward}, {'s', Sideways}} {
			switch n[x.c] {
			case 0:
			case 1:
				out = append(out, x.d)
			default:
				return nil, "a direction is given twice"
			}
		}
		return out, ""
	case Diagonal:
		if n['s'] > 0 || n['v'] > 0 || n['h'] > 0 || n['r'] > 0 || n['l'] > 0 {
			return nil, "only f and b are priced on diagonal atoms"
		}
		if n['f'] > 1 || n['b'] > 1 {
			return nil, "a direction is given twice"
		}
		var out []Dir
		if n['f'] == 1 {
			out = append(out, Forward)
		}
		if n['b'] == 1 {
			out = append(out, Backward)
		}
		return out, ""
	}
	// Oblique: one of f, fh, b, bh, v, s, ff, fs, bb, bs.
	if n['r'] > 0 || n['l'] > 0 {
		return nil, "r and l are not priced on oblique atoms (use f, b, v, s, ff, fs, bb, bs)"
	}
	key := fmt.Sprintf("f%db%ds%dv%dh%d", n['f'], n['b'], n['s'], n['v'], n['h'])
	switch key {
	case "f1b0s0v0h0", "f1b0s0v0h1":
		return []Dir{Forward}, ""
	case "f0b1s0v0h0", "f0b1s0v0h1":
		return []Dir{Backward}, ""
	case "f0b0s0v1h0":
		return []Dir{Narrow}, ""
	case "f0b0s1v0h0":
		return []Dir{Wide}, ""
	case "f2b0s0v0h0":
		return []Dir{FwdNarrow}, ""
	case "f1b0s1v0h0":
		return []Dir{FwdWide}, ""
	case "f0b2s0v0h0":
		return []Dir{BackNarrow}, ""
	case "f0b1s1v0h0":
		return []Dir{BackWide}, ""
	}
	return nil, "not a priced direction of an oblique atom (f, fh, b, bh, v, s, ff, fs, bb, bs; write a union as separate powers)"
}

// Vector is one move direction of a power in the owner's orientation
// (DY > 0 is forward), with whether it repeats (a rider) and what it may do
// at its destination.
type Vector struct {
	DX, DY  int8
	Rider   bool
	Move    bool // may go to an empty square
	Capture bool // may capture an enemy piece
}

// Vectors returns the move vectors of the power (CS-21 for oblique atoms).
func (w Power) Vectors() []Vector {
	in := atomInfo[w.Atom]
	a, b := in.a, in.b
	mv := w.Mode != CaptureOnly
	cp := w.Mode != MoveOnly
	var out []Vector
	add := func(dx, dy int8) {
		for _, v := range out {
			if v.DX == dx && v.DY == dy {
				return
			}
		}
		out = append(out, Vector{DX: dx, DY: dy, Rider: in.rider, Move: mv, Capture: cp})
	}
	switch in.class {
	case Orthogonal:
		if w.Dir == All || w.Dir == Forward {
			add(0, b)
		}
		if w.Dir == All || w.Dir == Backward {
			add(0, -b)
		}
		if w.Dir == All || w.Dir == Sideways {
			add(b, 0)
			add(-b, 0)
		}
	case Diagonal:
		if w.Dir == All || w.Dir == Forward {
			add(a, a)
			add(-a, a)
		}
		if w.Dir == All || w.Dir == Backward {
			add(a, -a)
			add(-a, -a)
		}
	case Oblique:
		narrowF := w.Dir == All || w.Dir == Forward || w.Dir == Narrow || w.Dir == FwdNarrow
		wideF := w.Dir == All || w.Dir == Forward || w.Dir == Wide || w.Dir == FwdWide
		narrowB := w.Dir == All || w.Dir == Backward || w.Dir == Narrow || w.Dir == BackNarrow
		wideB := w.Dir == All || w.Dir == Backward || w.Dir == Wide || w.Dir == BackWide
		if narrowF {
			add(a, b)
			add(-a, b)
		}
		if wideF {
			add(b, a)
			add(-b, a)
		}
		if narrowB {
			add(a, -b)
			add(-a, -b)
		}
		if wideB {
			add(b, -a)
			add(-b, -a)
		}
	}
	return out
}

// Vectors returns the move set of the design: the union of its powers'
// vectors, each move once. A vector given by several powers of the same
// kind (leaper or rider) has the union of their modes. A leaper's vector
// that is also the first step of a rider keeps only the modes the rider
// lacks, and is left out when the rider has them all: WR moves as R, WfR
// as fR with the W's other three steps, mWcR keeps mW (the step to an
// empty square) beside cR, and WcR keeps mW. A leap that is a further
// step of a rider (D and R, A and B) is a move of its own when the rider
// is blocked, so both stay; the generator lists such a move once (the
// rider skips the steps the leap gives).
func (d Design) Vectors() []Vector {
	var out []Vector
	for _, w := range d.Powers {
		for _, v := range w.Vectors() {
			merged := false
			for i := range out {
				if out[i].DX == v.DX && out[i].DY == v.DY && out[i].Rider == v.Rider {
					out[i].Move = out[i].Move || v.Move
					out[i].Capture = out[i].Capture || v.Capture
					merged = true
					break
				}
			}
			if !merged {
				out = append(out, v)
			}
		}
	}
	n := 0
	for _, v := range out {
		if !v.Rider {
			for _, r := range out {
				if r.Rider && r.DX == v.DX && r.DY == v.DY {
					v.Move = v.Move && !r.Move
					v.Capture = v.Capture && !r.Capture
				}
			}
			if !v.Move && !v.Capture {
				continue
			}
		}
		out[n] = v
		n++
	}
	return out[:n]
}

// ColorBound reports whether every move vector of the design has dx+dy
// even, so the piece never leaves squares of one colour (CS-20).
func (d Design) ColorBound() bool {
	for _, w := range d.Powers {
		for _, v := range w.Vectors() {
			if (int(v.DX)+int(v.DY))%2 != 0 {
				return false
			}
		}
	}
	return true
}
