package crazy

import (
	"math"
	"testing"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// TestKingCountsNothing: the King counts nothing in the evaluation,
// standing on the board (the core's value of the type, set to 0 by
// crazychess.toml) as riding in a Rook (the Eval hook skips it), so that
// entering a Rook costs the King no material. Each pair of positions
// differs only by the King beside a Rook or inside it; the difference of
// their evaluations is then the King's square alone.
func TestKingCountsNothing(t *testing.T) {
	v := newVariant(t, nil)
	ev := eval.New(v)
	if got := ev.Value(v.TypeOf('K')); got != 0 {
		t.Errorf("the King's value is %d, want 0", got)
	}
	tests := []struct{ beside, inside string }{
		{"4k3/pp3ppp/8/8/8/8/PP3PPP/3RK3 w - - 0 1 w - 0", "4k3/pp3ppp/8/8/8/8/PP3PPP/3(RK)4 w - - 0 1 w - 0"},
		{"3rk3/pp2nppp/8/8/8/8/PP3PPP/4K3 b - - 0 1 b - 0", "3(rk)4/pp2nppp/8/8/8/8/PP3PPP/4K3 b - - 0 1 b - 0"},
	}
	for _, tt := range tests {
		a, b := ev.Evaluate(parse(t, v, tt.beside)), ev.Evaluate(parse(t, v, tt.inside))
		if d := a - b; d < -100 || d > 100 {
			t.Errorf("the King beside its Rook %d, inside it %d: %d apart", a, b, d)
		}
	}
}

// TestHolderWeight: the right to deny is worth more in the learned
// evaluation than in the hand-set one, and the evaluation takes it from the
// weights file: two positions that differ only by the holder of the right
// are twice the weight apart.
func TestHolderWeight(t *testing.T) {
	v := newVariant(t, nil)
	w, ok := v.Spec().Weights["crazy.holder"]
	if !ok {
		t.Fatal("crazychess.toml does not set crazy.holder")
	}
	if w <= holderBonus {
		t.Errorf("crazy.holder is %v, want more than the hand-set %d", w, holderBonus)
	}
	ev := eval.New(v)
	for _, tt := range []struct{ white, black string }{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 w - 0", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 b - 0"},
		{"r3k3/ppp5/8/8/8/8/5PPP/4K2R b - - 0 1 w - 0", "r3k3/ppp5/8/8/8/8/5PPP/4K2R b - - 0 1 b - 0"},
	} {
		a, b := ev.Evaluate(parse(t, v, tt.white)), ev.Evaluate(parse(t, v, tt.black))
		want := 2 * int(math.Round(w))
		if parse(t, v, tt.white).Turn() != rules.White {
			want = -want
		}
		if d := a - b; d != want {
			t.Errorf("%s: the right to White %d, to Black %d: %d apart, want %d", tt.white, a, b, d, want)
		}
	}
}
