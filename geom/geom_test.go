package geom

import (
	"errors"
	"testing"
)

func TestSquares(t *testing.T) {
	for f := 0; f < MaxFiles; f++ {
		for r := 0; r < MaxRanks; r++ {
			s := Sq(f, r)
			if s.File() != f || s.Rank() != r {
				t.Fatalf("Sq(%d,%d) = %d has file %d rank %d", f, r, s, s.File(), s.Rank())
			}
			for dx := -MaxLeap; dx <= MaxLeap; dx++ {
				for dy := -MaxLeap; dy <= MaxLeap; dy++ {
					n := int(s) + Offset(dx, dy)
					if n < 0 || n >= Cells {
						t.Fatalf("a leap of (%d,%d) from %v leaves the mailbox", dx, dy, s)
					}
					if g := Square(n); g.File() != f+dx || g.Rank() != r+dy {
						t.Fatalf("a leap of (%d,%d) from %v lands on %v", dx, dy, s, g)
					}
				}
			}
		}
	}
	if NoSquare.String() != "-" || Sq(0, 0).String() != "a1" || Sq(15, 15).String() != "p16" || Sq(9, 9).String() != "j10" {
		t.Error("square names")
	}
	if !Sq(7, 0).Light() || Sq(0, 0).Light() {
		t.Error("h1 is light and a1 dark")
	}
}

func TestBoard(t *testing.T) {
	for _, sz := range [][2]int{{3, 8}, {8, 3}, {17, 8}, {8, 17}, {0, 0}} {
		if _, err := NewBoard(sz[0], sz[1]); err == nil {
			t.Errorf("NewBoard(%d, %d) accepted", sz[0], sz[1])
		}
	}
	for _, sz := range [][2]int{{4, 4}, {16, 16}, {10, 8}} {
		b, err := NewBoard(sz[0], sz[1])
		if err != nil {
			t.Fatal(err)
		}
		if n := len(b.Squares()); n != sz[0]*sz[1] {
			t.Errorf("%dx%d has %d squares", sz[0], sz[1], n)
		}
	}
	b, _ := NewBoard(10, 12)
	b.Holes.Add(Sq(4, 4))
	if b.Contains(Sq(4, 4)) || !b.OnGrid(Sq(4, 4)) || !b.Contains(Sq(9, 11)) || b.Contains(Sq(10, 0)) || b.Contains(Sq(0, 12)) {
		t.Error("Contains/OnGrid")
	}
	if len(b.Squares()) != 119 {
		t.Errorf("%d squares with one hole", len(b.Squares()))
	}
	if b.Mirror(Sq(0, 0)) != Sq(0, 11) || b.Rotate(Sq(0, 0)) != Sq(9, 11) {
		t.Error("Mirror/Rotate")
	}
}

func TestParseSquare(t *testing.T) {
	b, _ := NewBoard(10, 12)
	for _, tt := range []struct {
		in   string
		want Square
		n    int
	}{
		{"a1", Sq(0, 0), 2}, {"j12", Sq(9, 11), 3}, {"a10b3", Sq(0, 9), 3}, {"a1a2", Sq(0, 0), 2},
		{"c13", Sq(2, 0), 2}, // rank 13 is off the board: read "c1", leave "3"
	} {
		s, n, err := b.ScanSquare(tt.in)
		if err != nil || s != tt.want || n != tt.n {
			t.Errorf("ScanSquare(%q) = %v, %d, %v; want %v, %d", tt.in, s, n, err, tt.want, tt.n)
		}
	}
	for _, bad := range []string{"", "a", "k1", "a0", "a13", "A1", "1a", "a1x", "a01"} {
		if _, err := b.ParseSquare(bad); !errors.Is(err, ErrBadSquare) {
			t.Errorf("ParseSquare(%q): %v", bad, err)
		}
	}
}

func TestSet(t *testing.T) {
	var s, u Set
	if !s.Empty() || s.Len() != 0 {
		t.Fatal("zero Set not empty")
	}
	s.Add(Sq(0, 0))
	s.Add(Sq(15, 15))
	s.Add(Sq(4, 3))
	u.Add(Sq(4, 3))
	u.Add(Sq(5, 5))
	if s.Len() != 3 || !s.Has(Sq(15, 15)) || s.Has(Sq(1, 0)) {
		t.Error("Add/Has/Len")
	}
	if got := s.String(); got != "a1 e4 p16" {
		t.Errorf("String = %q", got)
	}
	i := s
	i.Intersect(&u)
	if i.String() != "e4" {
		t.Errorf("Intersect = %s", i.String())
	}
	s.Union(&u)
	s.Remove(Sq(0, 0))
	if s.String() != "e4 f6 p16" {
		t.Errorf("Union/Remove = %s", s.String())
	}
}
