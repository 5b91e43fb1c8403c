package search

import (
	"github.com/anychess/anychess/rules"
)

// Bounds of a stored score.
const (
	boundNone uint8 = iota
	boundUpper
	boundLower
	boundExact
)

// entry is one transposition-table slot.
type entry struct {
	key   uint64
	move  rules.Move
	score int32
	eval  int32
	depth int8
	bound uint8
	age   uint8
}

// table is the transposition table: a power-of-two array of two-slot
// buckets, replaced by depth and age.
type table struct {
	slots []entry
	mask  uint64
	age   uint8
}

func newTable(mb int) *table {
	n := uint64(mb) << 20 / 40 // bytes per entry, with padding
	size := uint64(2)
	for size*2 <= n {
		size *= 2
	}
	return &table{slots: make([]entry, size), mask: size - 2}
}

func (t *table) clear() {
	clear(t.slots)
	t.age = 0
}

// hashfull returns the permille of the first thousand slots (or all, if
// fewer) that hold an entry of the current age.
func (t *table) hashfull() int {
	n := min(len(t.slots), 1000)
	used := 0
	for _, e := range t.slots[:n] {
		if e.bound != boundNone && e.age == t.age {
			used++
		}
	}
	return used * 1000 / n
}

// probe returns the entry for key, if stored.
func (t *table) probe(key uint64) (entry, bool) {
	i := key & t.mask
	for j := i; j < i+2; j++ {
		if e := t.slots[j]; e.key == key && e.bound != boundNone {
			return e, true
		}
	}
	return entry{}, false
}

// store saves a search result, keeping the deeper or newer of a bucket.
func (t *table) store(key uint64, m rules.Move, score, eval int32, depth int, bound uint8) {
	i := key & t.mask
	victim := i
	for j := i; j < i+2; j++ {
		e := &t.slots[j]
		if e.key == key || e.bound == boundNone {
			victim = j
			break
		}
		if worse(e, &t.slots[victim], t.age) {
			victim = j
		}
	}
	e := &t.slots[victim]
	if e.key == key && m == rules.NoMove {
		m = e.move // keep the known best move
	}
	if e.key == key && bound != boundExact && int(e.depth) > depth+2 && e.age == t.age {
		return // keep a much deeper result of this search
	}
	*e = entry{key: key, move: m, score: score, eval: eval, depth: int8(depth), bound: bound, age: t.age}
}

// worse reports whether a is a better slot to overwrite than b.
func worse(a, b *entry, age uint8) bool {
	va := int(a.depth) - 8*int(age-a.age)
	vb := int(b.depth) - 8*int(age-b.age)
	return va < vb
}
