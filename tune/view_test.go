package tune

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/rules"
)

// TestViews: each position of a moderated csipgs sample becomes a sample
// of its side to move's view: the own pieces and the result and score
// stay, the enemy piece out of sight moves off the squares the side sees,
// the draw repeats with the seed; a variant that hides nothing has no
// views.
func TestViews(t *testing.T) {
	open, err := catalog.MustDefault().Get("csipgs")
	if err != nil {
		t.Fatal(err)
	}
	v, err := open.Configure(map[string]string{"Moderated": "1"})
	if err != nil {
		t.Fatal(err)
	}
	// White sees the squares its royal reaches; the black rook on a4 is
	// out of its sight.
	const fen = "4k3/8/8/8/r7/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q}"
	truth, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	seen := truth.View(rules.White).Visible
	var ps []Position
	for g := range 12 {
		ps = append(ps, Position{Game: g, FEN: fen, Result: 0.25, Score: -40, Scored: true})
	}
	out, err := Views(v, ps, 7)
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for i, sp := range out {
		if sp.Game != ps[i].Game || sp.Result != ps[i].Result || sp.Score != ps[i].Score || !sp.Scored {
			t.Errorf("position %d: game %d result %v score %v scored %v, want the true position's", i, sp.Game, sp.Result, sp.Score, sp.Scored)
		}
		s, err := v.ParseFEN(sp.FEN)
		if err != nil {
			t.Fatalf("position %d: %v", i, err)
		}
		if got, want := s.Pieces(rules.White), truth.Pieces(rules.White); !slices.Equal(got, want) {
			t.Errorf("position %d: white pieces on %v, want %v", i, got, want)
		}
		var black []string
		for _, sq := range s.Pieces(rules.Black) {
			black = append(black, string(v.PieceLetter(s.At(sq))))
			if seen.Has(sq) && s.At(sq) != truth.At(sq) {
				t.Errorf("position %d: %s on %v, a square White sees", i, sp.FEN, sq)
			}
		}
		slices.Sort(black)
		if strings.Join(black, "") != "kr" {
			t.Errorf("position %d: black pieces %v, want k and r", i, black)
		}
		if sp.FEN != fen {
			moved++
		}
	}
	if moved == 0 {
		t.Error("no sample moved the unseen rook")
	}
	again, err := Views(v, ps, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again, out) {
		t.Error("the same seed drew other samples")
	}
	if _, err := Views(open, ps, 7); !errors.Is(err, ErrNoViews) {
		t.Errorf("the open game: %v, want ErrNoViews", err)
	}
}
