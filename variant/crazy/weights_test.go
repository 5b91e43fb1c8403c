package crazy

import (
	"testing"

	"github.com/anychess/anychess/eval"
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
