package rules_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/anychess/anychess/rules"
)

// TestWithWeights: WithWeights returns a copy that plays as the original
// with other weights in its Spec, and Position.On moves a position, with
// its history, to such a copy and to nothing else.
func TestWithWeights(t *testing.T) {
	s := chessSpec(t)
	s.Weights = map[string]float64{"tempo": 7}
	v := compile(t, s)
	w := v.WithWeights(nil)
	if w == v || len(w.Spec().Weights) != 0 || v.Spec().Weights["tempo"] != 7 {
		t.Fatalf("WithWeights(nil): copy %p with %v, original %p with %v; want a copy without weights and the original's kept", w, w.Spec().Weights, v, v.Spec().Weights)
	}
	if w.Start().Variant() != w {
		t.Error("a position of the copy points to another variant")
	}
	if !v.SameRules(w) || !w.SameRules(v.WithFace("f")) {
		t.Error("SameRules: a copy by WithWeights or WithFace is not the same rules")
	}

	p := v.Start()
	for _, mv := range [][2]string{{"e2", "e4"}, {"e7", "e5"}, {"g1", "f3"}} {
		p.Make(find(t, p, mv[0], mv[1]))
	}
	q, err := p.On(w)
	if err != nil {
		t.Fatalf("On(copy): %v", err)
	}
	if q.Variant() != w || p.Variant() != v {
		t.Errorf("On: the position is of %p and the original of %p; want the copy %p and %p", q.Variant(), p.Variant(), w, v)
	}
	if q.FEN() != p.FEN() || q.Hash() != p.Hash() || rules.Perft(q, 2) != rules.Perft(p, 2) {
		t.Errorf("On: %s (perft(2) %d), want %s (%d)", q.FEN(), rules.Perft(q, 2), p.FEN(), rules.Perft(p, 2))
	}
	q.Unmake()
	q.Unmake()
	q.Unmake()
	if q.FEN() != v.StartFEN() {
		t.Errorf("On kept no history: three unmakes give %s, want the start", q.FEN())
	}

	other := compile(t, chessSpec(t))
	for _, tt := range []struct {
		name string
		to   *rules.Variant
	}{
		{"another compile of the same spec", other},
		{"no variant", nil},
	} {
		if _, err := p.On(tt.to); !errors.Is(err, rules.ErrSpec) {
			t.Errorf("On(%s) = %v, want ErrSpec", tt.name, err)
		}
	}
}

// TestPseudoLegalCaptures: the pseudo-legal captures and promotions, less
// the illegal ones, are the legal captures, in positions with pins,
// checks, en passant and promotions.
func TestPseudoLegalCaptures(t *testing.T) {
	v := chessSpecVariant(t)
	for _, fen := range []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"4k3/8/8/1b6/8/3N4/8/q3K3 w - - 0 1",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
		"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
	} {
		p, err := v.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		var got []rules.Move
		for _, m := range p.PseudoLegalCaptures(nil) {
			if !p.IsCapture(m) && m.Kind() != rules.Promotion {
				t.Errorf("%s: %v is neither a capture nor a promotion", fen, m)
			}
			if p.IsLegal(m) {
				got = append(got, m)
			}
		}
		want := p.LegalCaptures(nil)
		if len(got) != len(want) {
			t.Errorf("%s: %d legal of the pseudo-legal captures, want the %d legal captures", fen, len(got), len(want))
			continue
		}
		for _, m := range want {
			if !slices.Contains(got, m) {
				t.Errorf("%s: legal capture %v missing", fen, m)
			}
		}
	}
}
