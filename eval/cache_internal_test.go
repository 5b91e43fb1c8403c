package eval

import (
	"math"
	"testing"
)

// TestCacheSlots: a cache finds the score stored for a key and nothing
// else: not in an empty slot (key 0 included), not for another key of
// the same slot, not a score beyond 32 bits, and not in a slot whose two
// words come from different stores (a write another thread left half
// done).
func TestCacheSlots(t *testing.T) {
	const k = 0x9e3779b97f4a7c15
	other := uint64(k + 1<<cacheBits) // the same slot
	tests := []struct {
		name   string
		setup  func(c *cache)
		probe  uint64
		want   int
		wantOK bool
	}{
		{"empty", func(*cache) {}, k, 0, false},
		{"empty, key 0", func(*cache) {}, 0, 0, false},
		{"stored", func(c *cache) { c.store(k, 37) }, k, 37, true},
		{"stored 0", func(c *cache) { c.store(k, 0) }, k, 0, true},
		{"stored negative", func(c *cache) { c.store(k, -12345) }, k, -12345, true},
		{"stored, key 0", func(c *cache) { c.store(0, -1) }, 0, -1, true},
		{"most", func(c *cache) { c.store(k, math.MaxInt32) }, k, math.MaxInt32, true},
		{"least", func(c *cache) { c.store(k, math.MinInt32) }, k, math.MinInt32, true},
		{"beyond 32 bits", func(c *cache) { c.store(k, math.MaxInt32+1) }, k, 0, false},
		{"another key of the slot", func(c *cache) { c.store(other, 5) }, k, 0, false},
		{"replaced", func(c *cache) { c.store(k, 5); c.store(other, 6) }, other, 6, true},
		{"torn", func(c *cache) {
			c.store(k, 5)
			s := &c.slots[k&(1<<cacheBits-1)]
			s.data.Store(uint64(uint32(6)) | cacheValid) // another store's data, its key not yet written
		}, k, 0, false},
	}
	for _, tc := range tests {
		c := newCache()
		tc.setup(c)
		got, ok := c.probe(tc.probe)
		if ok != tc.wantOK || got != tc.want {
			t.Errorf("%s: probe = %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.wantOK)
		}
	}
}
