package geom

import (
	"math/bits"
	"strings"
)

// Set is a set of squares, one bit per mailbox cell. The zero value is the
// empty set. A Set is a value: assignment copies it.
type Set [Cells / 64]uint64

// Has reports whether s is in the set.
func (t *Set) Has(s Square) bool { return t[s>>6]>>(s&63)&1 != 0 }

// Add puts s in the set.
func (t *Set) Add(s Square) { t[s>>6] |= 1 << (s & 63) }

// Remove takes s out of the set.
func (t *Set) Remove(s Square) { t[s>>6] &^= 1 << (s & 63) }

// Union adds every square of u to t.
func (t *Set) Union(u *Set) {
	for i := range t {
		t[i] |= u[i]
	}
}

// Intersect keeps only the squares of t that are also in u.
func (t *Set) Intersect(u *Set) {
	for i := range t {
		t[i] &= u[i]
	}
}

// Len returns the number of squares in the set.
func (t *Set) Len() int {
	n := 0
	for _, w := range t {
		n += bits.OnesCount64(w)
	}
	return n
}

// Empty reports whether the set has no squares.
func (t *Set) Empty() bool {
	for _, w := range t {
		if w != 0 {
			return false
		}
	}
	return true
}

// Squares returns the squares of the set in increasing index order (rank 1
// first, file a first within a rank).
func (t *Set) Squares() []Square {
	var out []Square
	for i, w := range t {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			out = append(out, Square(i*64+b))
			w &= w - 1
		}
	}
	return out
}

// String lists the squares of the set by name, separated by spaces.
func (t *Set) String() string {
	var sb strings.Builder
	for i, s := range t.Squares() {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(s.String())
	}
	return sb.String()
}
