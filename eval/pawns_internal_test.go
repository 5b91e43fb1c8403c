package eval

import (
	"math"
	"testing"
)

// TestPawnTableEntries: a pawn table finds what was stored for a key and
// nothing else: not in an empty entry (key 0 included), not for another
// key of the same entry, not what pack cannot hold, and not in an entry
// whose words come from different stores (a write another thread left
// half done).
func TestPawnTableEntries(t *testing.T) {
	const k = 0x9e3779b97f4a7c15
	other := uint64(k + 1<<pawnTableBits) // the same entry
	a := pawnInfo{mg: [2]int{-12, 30}, eg: [2]int{7, -math.MaxInt16}, phalanx: [2]int{2, 0}, supported: [2]int{3, 255}, passed: [2]uint16{1 << 15, 6}}
	b := pawnInfo{mg: [2]int{5, 5}, phalanx: [2]int{1, 1}}
	tests := []struct {
		name   string
		setup  func(tab *pawnTable)
		probe  uint64
		want   pawnInfo
		wantOK bool
	}{
		{"empty", func(*pawnTable) {}, k, pawnInfo{}, false},
		{"empty, key 0", func(*pawnTable) {}, 0, pawnInfo{}, false},
		{"stored", func(tab *pawnTable) { tab.store(k, &a) }, k, a, true},
		{"stored, key 0", func(tab *pawnTable) { tab.store(0, &b) }, 0, b, true},
		{"another key of the entry", func(tab *pawnTable) { tab.store(other, &b) }, k, pawnInfo{}, false},
		{"replaced", func(tab *pawnTable) { tab.store(k, &a); tab.store(other, &b) }, other, b, true},
		{"a score beyond 16 bits", func(tab *pawnTable) {
			x := a
			x.eg[1] = math.MaxInt16 + 1
			tab.store(k, &x)
		}, k, pawnInfo{}, false},
		{"a count beyond 8 bits", func(tab *pawnTable) {
			x := a
			x.phalanx[0] = 256
			tab.store(k, &x)
		}, k, pawnInfo{}, false},
		{"torn", func(tab *pawnTable) {
			tab.store(k, &a)
			s, _, _ := pack(&b)
			tab.entries[k&(1<<pawnTableBits-1)].scores.Store(s) // another store's word, its check not yet written
		}, k, pawnInfo{}, false},
	}
	for _, tc := range tests {
		tab := newPawnTable()
		tc.setup(tab)
		var got pawnInfo
		ok := tab.probe(tc.probe, &got)
		if ok != tc.wantOK || got != tc.want {
			t.Errorf("%s: probe = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.wantOK)
		}
	}
}
