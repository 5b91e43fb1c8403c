package rules_test

import (
	"slices"
	"testing"

	"github.com/anychess/anychess/internal/corpus"
	"github.com/anychess/anychess/internal/vtest"

	"github.com/anychess/anychess/rules"
)

func epd(t *testing.T, name string) []string {
	t.Helper()
	fens, err := corpus.FENs(name)
	if err != nil {
		t.Fatal(err)
	}
	return fens
}

// walk visits every node of the move tree to depth and checks, at each:
// the fast legal-move filter agrees with making and testing every
// pseudo-legal move; piece lists match the board; the incremental hash
// equals the hash of the same position read afresh from its FEN; and
// Make followed by Unmake restores FEN, hash and lists exactly.
func walk(t *testing.T, v *rules.Variant, p *rules.Position, depth int, nodes *int) {
	*nodes++
	fen, hash := p.FEN(), p.Hash()
	if msg := rules.CheckLists(p); msg != "" {
		t.Fatalf("%s: %s", fen, msg)
	}
	fresh, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatalf("FEN %s does not read back: %v", fen, err)
	}
	if fresh.Hash() != hash {
		t.Fatalf("%s: incremental hash %x, recomputed %x", fen, hash, fresh.Hash())
	}
	fast := p.LegalMoves(nil)
	slow := rules.LegalByTest(p, nil)
	sf, ss := slices.Clone(fast), slices.Clone(slow)
	slices.Sort(sf)
	slices.Sort(ss)
	if !slices.Equal(sf, ss) {
		t.Fatalf("%s: LegalMoves %d moves, make-and-test %d:\n%v\n%v", fen, len(fast), len(slow), fast, slow)
	}
	if depth == 0 {
		return
	}
	for _, m := range fast {
		p.Make(m)
		walk(t, v, p, depth-1, nodes)
		p.Unmake()
		if p.FEN() != fen || p.Hash() != hash {
			t.Fatalf("%s: Make/Unmake of %#v left %s (hash %x, want %x)", fen, m, p.FEN(), p.Hash(), hash)
		}
	}
}

func TestInvariants(t *testing.T) {
	reg := vtest.Builtins()
	depth := 2
	if testing.Short() {
		depth = 1
	}
	for _, tc := range []struct{ name, file string }{
		{"chess", "chess.epd"}, {"greatshatranj", "greatshatranj.epd"}, {"chatrang", "chatrang.epd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, err := reg.Get(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			nodes := 0
			for _, fen := range epd(t, tc.file) {
				p, err := v.ParseFEN(fen)
				if err != nil {
					t.Fatal(err)
				}
				walk(t, v, p, depth, &nodes)
			}
			t.Logf("%d nodes checked", nodes)
		})
	}
}

// TestHotPathAllocations pins that move generation and make/unmake do not
// allocate once the history has room.
func TestHotPathAllocations(t *testing.T) {
	reg := vtest.Builtins()
	for _, name := range []string{"chess", "greatshatranj", "chatrang"} {
		v, _ := reg.Get(name)
		p := v.Start()
		buf := make([]rules.Move, 0, rules.MaxMoves)
		p.Make(p.LegalMoves(buf)[0]) // let the history grow once
		p.Unmake()
		allocs := testing.AllocsPerRun(100, func() {
			for _, m := range p.LegalMoves(buf[:0]) {
				p.Make(m)
				_ = p.InCheck()
				p.Unmake()
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per generate-make-unmake round", name, allocs)
		}
	}
}

// TestLegalCaptures checks the captures-only generator against the full
// one: the same captures and promotions, nothing else.
func TestLegalCaptures(t *testing.T) {
	reg := vtest.Builtins()
	for _, tc := range []struct{ name, file string }{
		{"chess", "chess.epd"}, {"greatshatranj", "greatshatranj.epd"}, {"chatrang", "chatrang.epd"},
	} {
		v, _ := reg.Get(tc.name)
		for _, fen := range epd(t, tc.file) {
			p, _ := v.ParseFEN(fen)
			for _, m := range p.LegalMoves(nil) {
				p.Make(m)
				var want []rules.Move
				for _, r := range p.LegalMoves(nil) {
					if p.IsCapture(r) || r.Kind() == rules.Promotion {
						want = append(want, r)
					}
				}
				got := p.LegalCaptures(nil)
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: LegalCaptures %v, want %v", p.FEN(), got, want)
				}
				p.Unmake()
			}
		}
	}
}
