package search

import (
	"sync/atomic"

	"github.com/anychess/anychess/rules"
)

// Bounds of a stored score.
const (
	boundNone uint8 = iota
	boundUpper
	boundLower
	boundExact
)

// entry is one transposition-table slot, decoded.
type entry struct {
	key   uint64
	move  rules.Move
	score int32
	eval  int32
	depth int8
	bound uint8
	age   uint8
}

// maxTTEval bounds the static evaluation a slot keeps (24 bits, signed).
const maxTTEval = 1<<23 - 1

// slot is one entry as the table stores it: three words written and read
// one by one with atomic stores and loads, so that threads share the table
// without locks. The first word is the key XOR the other two, so a slot
// whose words come from two different stores (a torn entry) fails the key
// test and reads as empty.
//
//	w[1]  the move
//	w[2]  bits 0-15 score (int16), 16-39 static evaluation (int24),
//	      40-47 depth (int8), 48-55 bound, 56-63 age
type slot struct {
	w [3]atomic.Uint64
}

// pack returns the data words of e.
func (e *entry) pack() (w1, w2 uint64) {
	ev := min(max(e.eval, -maxTTEval), maxTTEval)
	w2 = uint64(uint16(int16(e.score))) | uint64(uint32(ev)&(1<<24-1))<<16 |
		uint64(uint8(e.depth))<<40 | uint64(e.bound)<<48 | uint64(e.age)<<56
	return uint64(e.move), w2
}

// load reads the slot. A torn slot reads as a slot of another key.
func (s *slot) load() entry {
	w0, w1, w2 := s.w[0].Load(), s.w[1].Load(), s.w[2].Load()
	return entry{
		key:   w0 ^ w1 ^ w2,
		move:  rules.Move(w1),
		score: int32(int16(w2)),
		eval:  int32(uint32(w2>>16)<<8) >> 8,
		depth: int8(w2 >> 40),
		bound: uint8(w2 >> 48),
		age:   uint8(w2 >> 56),
	}
}

// put writes e to the slot.
func (s *slot) put(e entry) {
	w1, w2 := e.pack()
	s.w[0].Store(e.key ^ w1 ^ w2)
	s.w[1].Store(w1)
	s.w[2].Store(w2)
}

// table is the transposition table: a power-of-two array of two-slot
// buckets, replaced by depth and age. The threads of a search share it:
// its slots are read and written without locks (see slot), and so is the
// age (the helpers of a search may still be stopping when the next begins).
type table struct {
	slots []slot
	mask  uint64
	age   atomic.Uint32 // the search's age, modulo 256
}

// curAge returns the age of the current search.
func (t *table) curAge() uint8 { return uint8(t.age.Load()) }

func newTable(mb int) *table {
	// The number of slots as when an entry took 40 bytes (a slot takes
	// 24): searches with the same hash size stay the same.
	n := uint64(mb) << 20 / 40
	size := uint64(2)
	for size*2 <= n {
		size *= 2
	}
	return &table{slots: make([]slot, size), mask: size - 2}
}

// clear empties the table; no search may be running.
func (t *table) clear() {
	for i := range t.slots {
		for j := range t.slots[i].w {
			t.slots[i].w[j].Store(0)
		}
	}
	t.age.Store(0)
}

// hashfull returns the permille of the first thousand slots (or all, if
// fewer) that hold an entry of the current age.
func (t *table) hashfull() int {
	n := min(len(t.slots), 1000)
	used := 0
	for i := range n {
		if e := t.slots[i].load(); e.bound != boundNone && e.age == t.curAge() {
			used++
		}
	}
	return used * 1000 / n
}

// probe returns the entry for key, if stored.
func (t *table) probe(key uint64) (entry, bool) {
	i := key & t.mask
	for j := i; j < i+2; j++ {
		if e := t.slots[j].load(); e.key == key && e.bound != boundNone {
			return e, true
		}
	}
	return entry{}, false
}

// store saves a search result, keeping the deeper or newer of a bucket.
func (t *table) store(key uint64, m rules.Move, score, eval int32, depth int, bound uint8) {
	i := key & t.mask
	age := t.curAge()
	b := [2]entry{t.slots[i].load(), t.slots[i+1].load()}
	victim := 0
	for j := range 2 {
		e := &b[j]
		if e.key == key || e.bound == boundNone {
			victim = j
			break
		}
		if worse(e, &b[victim], age) {
			victim = j
		}
	}
	e := &b[victim]
	if e.key == key && m == rules.NoMove {
		m = e.move // keep the known best move
	}
	if e.key == key && bound != boundExact && int(e.depth) > depth+2 && e.age == age {
		return // keep a much deeper result of this search
	}
	t.slots[i+uint64(victim)].put(entry{key: key, move: m, score: score, eval: eval, depth: int8(depth), bound: bound, age: age})
}

// worse reports whether a is a better slot to overwrite than b.
func worse(a, b *entry, age uint8) bool {
	va := int(a.depth) - 8*int(age-a.age)
	vb := int(b.depth) - 8*int(age-b.age)
	return va < vb
}
