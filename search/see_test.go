package search

import (
	"context"
	"slices"
	"testing"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// seeSearcher returns a searcher of the position fen of the named variant.
func seeSearcher(t *testing.T, name, fen string) *searcher {
	t.Helper()
	v, err := vtest.Builtins().Get(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return New(1).newSearcher(context.Background(), p, Limits{})
}

// TestSEE checks static exchange values against hand computations in the
// variant's piece values: seeGE must hold at the value and fail one above.
func TestSEE(t *testing.T) {
	type vals func(letter byte) int
	tests := []struct {
		name, variant, fen, move string
		want                     func(v vals) int
	}{
		{"undefended pawn", "chess", "4k3/8/8/4p3/8/8/8/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return v('P') }},
		{"pawn defended by a pawn", "chess", "4k3/8/3p4/4p3/8/8/8/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return v('P') - v('R') }},
		{"rook behind rook (x-ray)", "chess", "4r1k1/8/8/4n3/8/8/4R3/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return v('N') }},
		{"defender's x-ray: queen behind rook", "chess", "4q1k1/4r3/8/4n3/8/8/4R3/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return min(v('N'), v('N')-v('R')+v('R')-v('R')) }},
		{"king may recapture", "chess", "8/8/3k4/4p3/8/8/8/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return v('P') - v('R') }},
		{"king may not recapture into an attack", "chess", "8/8/3k4/4p3/8/2B5/8/4R1K1 w - - 0 1", "Rxe5",
			func(v vals) int { return v('P') }},
		{"quiet move to an attacked square", "chess", "4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1", "Qd5",
			func(v vals) int { return -v('Q') }},
		{"quiet move to a safe square", "chess", "4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1", "Qd4",
			func(v vals) int { return 0 }},
		{"great shatranj leapers", "greatshatranj", "9k/4w5/10/4g5/10/2EN6/10/K9 w - - 0 1", "Nxe5",
			func(v vals) int { return min(v('G'), v('G')-v('N')+v('W')) }},
		{"great shatranj: general defended by a pawn", "greatshatranj", "9k/10/3p6/4g5/10/3N6/10/K9 w - - 0 1", "Nxe5",
			func(v vals) int { return min(v('G'), v('G')-v('N')) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := seeSearcher(t, tt.variant, tt.fen)
			p := s.p
			val := func(letter byte) int {
				ty := p.Variant().TypeOf(letter)
				if ty == 0 {
					t.Fatalf("no piece %c", letter)
				}
				return s.ev.Value(ty)
			}
			m, err := notation.ParseSAN(p, tt.move)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want(val)
			fen, hash := p.FEN(), p.Hash()
			lists := [2][]geom.Square{slices.Clone(p.Pieces(rules.White)), slices.Clone(p.Pieces(rules.Black))}
			if !s.seeGE(m, want) {
				t.Errorf("seeGE(%s, %d) = false, want true", tt.move, want)
			}
			if s.seeGE(m, want+1) {
				t.Errorf("seeGE(%s, %d) = true, want false", tt.move, want+1)
			}
			if p.FEN() != fen || p.Hash() != hash {
				t.Errorf("position changed: %s, want %s", p.FEN(), fen)
			}
			// The piece lists keep their order (move generation follows it).
			if !slices.Equal(p.Pieces(rules.White), lists[0]) || !slices.Equal(p.Pieces(rules.Black), lists[1]) {
				t.Errorf("piece lists %v %v, want %v %v", p.Pieces(rules.White), p.Pieces(rules.Black), lists[0], lists[1])
			}
		})
	}
}

// TestPlainCaptures checks which variants get static exchange evaluation.
func TestPlainCaptures(t *testing.T) {
	reg := testRegistry(t)
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"chess", true}, {"greatshatranj", true}, {"chatrang", true},
		{"vazir", false}, {"crazy", false}, {"csipgs", false},
	} {
		v, err := reg.Get(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := plainCaptures(v); got != tt.want {
			t.Errorf("plainCaptures(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSEENoAlloc pins static exchange evaluation, which runs for captures
// at every node, allocation-free.
func TestSEENoAlloc(t *testing.T) {
	s := seeSearcher(t, "chess", "4q1k1/4r3/8/4n3/8/8/4R3/4R1K1 w - - 0 1")
	m, err := notation.ParseSAN(s.p, "Rxe5")
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { s.seeGE(m, 0) }); n != 0 {
		t.Errorf("seeGE allocates %v times", n)
	}
}
