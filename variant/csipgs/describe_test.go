package csipgs

import (
	"slices"
	"testing"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
)

// TestDescribe checks csipgs's description: the phase, the treasuries in
// zorkmids, each side's designs with prices, and in a view under
// HideEconomy nothing of the opponent's economy.
func TestDescribe(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/4K3 w& 1/7 N/- PRNBKQ/ARNBKQ 0 10 {A=WF,B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"
	for _, tt := range []struct {
		name  string
		o     Options
		view  bool
		want  []face.Counter
		black int // black's types described
	}{
		{"open game", DefaultOptions(), false, []face.Counter{
			{Side: "white", Name: "treasury", Value: "1 zorkmid", Unit: "zorkmid"},
			{Side: "white", Name: "reserve", Value: "N"},
			{Side: "black", Name: "treasury", Value: "7 zorkmids", Unit: "zorkmid"},
			{Side: "black", Name: "reserve", Value: "-"},
		}, 6},
		{"white's view, economy hidden", Options{Moderated: true, HideEconomy: true}, true, []face.Counter{
			{Side: "white", Name: "treasury", Value: "1 zorkmid", Unit: "zorkmid"},
			{Side: "black", Name: "treasury", Value: "hidden"},
			{Side: "black", Name: "reserve", Value: "hidden"},
		}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, newVariant(t, tt.o), fen)
			if tt.view {
				p = p.View(rules.White).Position
			}
			d := Face{}.Describe(p)
			if d.Phase != "design phase" {
				t.Errorf("phase %q", d.Phase)
			}
			for _, c := range tt.want {
				if !slices.Contains(d.Counters, c) {
					t.Errorf("counters %+v lack %+v", d.Counters, c)
				}
			}
			black := 0
			for _, ty := range d.Types {
				if ty.Side == "black" {
					black++
					if ty.Letter == "A" && (ty.Movement != "WF" || ty.Price == 0) {
						t.Errorf("black's A: %+v", ty)
					}
				}
			}
			if black != tt.black {
				t.Errorf("%d types of black described, want %d: %+v", black, tt.black, d.Types)
			}
		})
	}
}

// TestDescribePly checks the words for each kind of csipgs ply: a buy
// with its price, a transfer, a new design, a design taken again from the
// type table, keeping the designs, and none for a piece move.
func TestDescribePly(t *testing.T) {
	const (
		design = "4k3/8/8/8/8/8/8/4K3 w& 1/7 N/- PRNBKQ/ARNBKQ 0 10 {A=WF,B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"
		action = "4k3/8/8/8/8/8/8/4K3 w 9/7 N/- PRNBKQ/ARNBKQ 0 10 {A=WF,B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"
	)
	for _, tt := range []struct {
		fen, move string
		want      []string
	}{
		{action, "+R", []string{"buys R for 5 zorkmids"}},
		{action, "N@e2", []string{"places N from the reserve on e2"}},
		{action, "Ke1-d2", nil},
		{design, "&-", []string{"keeps the designs"}},
		{design, "&Q>Y=FfR", []string{"designs Y as FfR in place of Q"}},
		{design, "&Q>A", []string{"re-adopts A (WF) in place of Q"}},
	} {
		t.Run(tt.move, func(t *testing.T) {
			p := mustFEN(t, newVariant(t, DefaultOptions()), tt.fen)
			play(t, p, tt.move)
			got := Face{}.DescribePly(p)
			if !slices.Equal(got, tt.want) {
				t.Errorf("DescribePly after %s = %q, want %q", tt.move, got, tt.want)
			}
		})
	}
}
