package betza

import (
	"slices"
	"strconv"
	"strings"
)

// String returns a canonical description of the movement. Parsing it gives
// back an equal Movement. Components are printed atom by atom (W F D N A H L
// J G), limited riders first, then riders, then leaps; a full W and F pair prints as K or Q.
func (m Movement) String() string {
	type key struct {
		atom  int
		rng   uint8
		flags Flags
	}
	type group struct {
		key
		sets [2][]Vector // move, capture
	}
	var groups []*group
	find := func(k key) *group {
		for _, g := range groups {
			if g.key == k {
				return g
			}
		}
		g := &group{key: k}
		groups = append(groups, g)
		return g
	}
	var bad []Vector
	for _, l := range m.Legs {
		long, short := abs8(l.DX), abs8(l.DY)
		if short > long {
			long, short = short, long
		}
		ai := atomOrder(long, short)
		if ai == len(atomOrderLetters) || (l.Mode != Move && l.Mode != Capture) {
			bad = append(bad, l.Vector)
			continue
		}
		g := find(key{ai, l.Range, l.Flags})
		i := 0
		if l.Mode == Capture {
			i = 1
		}
		g.sets[i] = append(g.sets[i], l.Vector)
	}
	// Limited riders come first, then unlimited ones, then leaps, so that
	// adjacent components never read as one (N2NNN, not NNN2 or NN2N).
	rangeOrder := func(r uint8) int {
		switch r {
		case 1:
			return 30
		case 0:
			return 20
		}
		return int(r)
	}
	slices.SortStableFunc(groups, func(a, b *group) int {
		if a.atom != b.atom {
			return a.atom - b.atom
		}
		if a.rng != b.rng {
			return rangeOrder(a.rng) - rangeOrder(b.rng)
		}
		return int(a.flags) - int(b.flags)
	})

	type comp struct {
		atom  int
		rng   uint8
		flags Flags
		mode  string // "", "m" or "c"
		dirs  []string
	}
	var comps []comp
	for _, g := range groups {
		a := atoms[atomOrderLetters[g.atom]]
		add := func(mode string, set []Vector) {
			if len(set) == 0 {
				return
			}
			prefixes, ok := cover(a, set)
			if !ok {
				comps = append(comps, comp{g.atom, g.rng, g.flags, mode, []string{unprintable(set)}})
				return
			}
			for _, d := range prefixes {
				comps = append(comps, comp{g.atom, g.rng, g.flags, mode, d})
			}
		}
		if sameSet(g.sets[0], g.sets[1]) {
			add("", g.sets[0])
		} else {
			add("m", g.sets[0])
			add("c", g.sets[1])
		}
	}

	var sb strings.Builder
	for i := 0; i < len(comps); i++ {
		c := comps[i]
		letter := string(atomOrderLetters[c.atom])
		// A full W component followed by the matching full F component is K or Q.
		if c.atom == 0 && len(c.dirs) == 0 {
			for j := i + 1; j < len(comps); j++ {
				d := comps[j]
				if d.atom == 1 && d.rng == c.rng && d.flags == c.flags && d.mode == c.mode && len(d.dirs) == 0 {
					comps = slices.Delete(comps, j, j+1)
					letter = "K"
					break
				}
			}
		}
		if c.flags&Initial != 0 {
			sb.WriteByte('i')
		}
		sb.WriteString(strings.Join(c.dirs, ""))
		sb.WriteString(c.mode)
		if c.flags&Lame != 0 {
			sb.WriteByte('n')
		}
		if c.flags&Skip != 0 {
			sb.WriteByte('j')
		}
		if c.flags&Hop != 0 {
			sb.WriteByte('p')
		}
		sb.WriteString(atomText(letter, c.rng))
	}
	if len(bad) > 0 {
		sb.WriteString(unprintable(bad))
	}
	return sb.String()
}

// unprintable spells vectors the notation cannot express, so that String
// never hides a leg. Parse rejects the result.
func unprintable(vs []Vector) string {
	var sb strings.Builder
	sb.WriteString("?(")
	for i, v := range vs {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(int(v.DX)) + "," + strconv.Itoa(int(v.DY)))
	}
	sb.WriteString(")")
	return sb.String()
}

// atomText spells an atom letter with a range.
func atomText(letter string, rng uint8) string {
	rider := map[string]string{"W": "R", "F": "B", "K": "Q"}
	switch {
	case rng == 1:
		return letter
	case rng == 0:
		if r, ok := rider[letter]; ok {
			return r
		}
		return letter + letter
	}
	if r, ok := rider[letter]; ok {
		letter = r
	}
	return letter + strconv.Itoa(int(rng))
}

func sameSet(a, b []Vector) bool {
	if len(a) != len(b) {
		return false
	}
	for _, v := range a {
		if !slices.Contains(b, v) {
			return false
		}
	}
	return true
}

var candidateTerms = map[atomClass][]string{
	orthogonal: {"v", "s", "f", "b", "l", "r"},
	diagonal:   {"f", "b", "l", "r", "fl", "fr", "bl", "br"},
	oblique: {"v", "s", "f", "b", "l", "r",
		"ff", "fs", "bb", "bs", "ll", "lv", "rr", "rv", "fl", "fr", "bl", "br"},
}

// cover returns direction prefixes whose union is exactly set: one prefix
// when the terms can share a component, otherwise one prefix per component.
// A nil prefix list means all directions. It reports false if set is not a
// union of direction terms, which never happens for a parsed movement.
func cover(a [2]int8, set []Vector) ([][]string, bool) {
	if sameSet(set, symmetric(a)) {
		return [][]string{nil}, true
	}
	cls := classOf(a)
	cands := slices.Clone(candidateTerms[cls])
	size := func(t string) int {
		n := 0
		for _, v := range symmetric(a) {
			if termHas(t, cls, v) {
				n++
			}
		}
		return n
	}
	slices.SortStableFunc(cands, func(x, y string) int { return size(y) - size(x) })
	var chosen []string
	var covered []Vector
	for _, t := range cands {
		var sel []Vector
		inside, fresh := true, false
		for _, v := range symmetric(a) {
			if termHas(t, cls, v) {
				sel = append(sel, v)
				if !slices.Contains(set, v) {
					inside = false
				}
				if !slices.Contains(covered, v) {
					fresh = true
				}
			}
		}
		if inside && fresh {
			chosen = append(chosen, t)
			for _, v := range sel {
				if !slices.Contains(covered, v) {
					covered = append(covered, v)
				}
			}
		}
	}
	if !sameSet(covered, set) {
		return nil, false
	}
	joined := strings.Join(chosen, "")
	if sameSet(selectDirs(a, []string{joined}), set) {
		return [][]string{{joined}}, true
	}
	out := make([][]string, len(chosen))
	for i, t := range chosen {
		out[i] = []string{t}
	}
	return out, true
}
