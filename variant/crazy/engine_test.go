package crazy

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/anychess/anychess/rules"
)

// startFEN is the start position in Crazy-FEN.
const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b - 0"

// TestTactical: which moves a search treats as captures, and what they
// win, resolution included.
func TestTactical(t *testing.T) {
	v := newVariant(t, nil)
	tests := []struct {
		name  string
		fen   string
		moves []string // played first
		move  string
		gain  int
		ok    bool
	}{
		{"quiet", startFEN, nil, "e2-e4", 0, false},
		{"disguise", "4k3/8/8/8/8/4N3/4P3/4K3 w - - 0 1 b - 0", nil, "De3:e2", 0, false},
		{"rook takes rook", "4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1 w - 0", nil, "Rd1xd5", 500, true},
		// The pawn falls and takes the rook, then captures itself: +500
		// for the rook taken, -500 for the rook lost, +100 for the pawn.
		{"rook takes a loaded rook", "(rp)3k3/8/8/8/8/8/8/R3K3 w - - 0 1 w - 0", nil, "Ra1xa8", 100, true},
		{"denial gives the rook back", "4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1 b - 0", []string{"Rd1xd5"}, "DENY", 500, true},
		{"denial of a quiet move", startFEN, []string{"e2-e4"}, "DENY", 0, false},
	}
	for _, tt := range tests {
		p := parse(t, v, tt.fen)
		play(t, p, tt.moves...)
		m := must[rules.Move](t)(ParseMove(p, tt.move))
		fen := p.FEN()
		gain, ok := v.Ext().(rules.Engine).Tactical(p, m)
		if gain != tt.gain || ok != tt.ok {
			t.Errorf("%s: %s gains %d, %v; want %d, %v", tt.name, tt.move, gain, ok, tt.gain, tt.ok)
		}
		if p.IsCapture(m) != tt.ok {
			t.Errorf("%s: IsCapture(%s) = %v", tt.name, tt.move, !tt.ok)
		}
		if p.FEN() != fen {
			t.Errorf("%s: the position changed to %s", tt.name, p.FEN())
		}
	}
}

// TestEvalHook: passengers count (less than on the board), a risen Bishop
// counts little, the denial right a little; the sign follows the side to
// move.
func TestEvalHook(t *testing.T) {
	v := newVariant(t, nil)
	ev := v.Ext().(rules.Engine).Eval
	tests := []struct {
		fen  string
		want int
	}{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 w - 0", holderBonus},
		{"4k3/8/8/8/8/8/8/4K3 b - - 0 1 w - 0", -holderBonus},
		{"4k3/8/8/8/8/8/8/(RNP)3K3 w - - 0 1 b - 0", (320+100)*passengerShare/100 - holderBonus},
		{"4k3/8/8/8/3b*4/8/8/4K3 w - - 0 1 w - 0", 330 - 330*risenShare/100 + holderBonus},
		{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1 w - 0", holderBonus - queenByKing},
		{"3qk3/8/8/8/8/8/8/3QK3 b - - 0 1 w - 0", -holderBonus},
	}
	for _, tt := range tests {
		if got := ev(parse(t, v, tt.fen)); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.fen, got, tt.want)
		}
	}
}

// TestInCheckHook: Position.InCheck (the InCheck hook) is CC-43 for the
// side to move. It is compared with known answers, and with the naive
// implementation's check (naive_test.go: every pseudo-legal reply of the
// opponent made on a copy of the position, the opponent's castling
// included, looking for the King), which shares no code with the hook, on
// those positions, random positions with stacks and positions of random
// games, under two option sets.
func TestInCheckHook(t *testing.T) {
	known := []struct {
		fen  string
		want bool
	}{
		{startFEN, false},
		{"4k3/8/8/8/8/8/8/4RK2 b - - 0 1 b - 0", true},
		{"4k3/8/8/8/8/8/8/3R1K2 b - - 0 1 b - 0", false},
		// A Queen next to the King: taking it would bring revenge on the King.
		{"8/8/8/8/8/3qk3/8/3R1K2 b - - 0 1 b - 0", true},
		// A King inside a Rook: a Knight takes it at any depth (CC-21) ...
		{"4K3/8/8/8/3(Rk)4/5N2/8/8 b - - 0 1 w - 0", true},
		// ... and a Rook carries it along without taking it.
		{"4K3/8/8/8/3(Rk)4/8/8/8 b - - 0 1 w - 0", false},
		// A Knight's path capture: e4 to f6 passes e5 (CC-21, KnightPath=L).
		{"8/8/8/4k3/4N3/8/8/K7 b - - 0 1 w - 0", true},
		// Only a castling reply gives check: O-O-O, then c1xb2, and the
		// Queen's revenge takes the King on a3 (three squares from e1).
		{"8/8/8/8/8/k7/pq6/R3K3 b Q - 0 1 w - 0", true},
	}
	edits := []func(*Options){nil, func(o *Options) {
		o.AllRoundHitsPassengers, o.KingStep1Immunity, o.KnightPath, o.AllRoundRequiresVictim = true, NoImmunity, PathMao, false
	}}
	n := 300
	if *long {
		n = 3000
	}
	for k, edit := range edits {
		o := DefaultOptions()
		if edit != nil {
			edit(&o)
		}
		v := newVariant(t, edit)
		var positions []*rules.Position
		for _, tt := range known {
			p := parse(t, v, tt.fen)
			if got := p.InCheck(); got != tt.want {
				t.Errorf("%s: InCheck %v, want %v", tt.fen, got, tt.want)
			}
			positions = append(positions, p)
		}
		rng := rand.New(rand.NewPCG(5, uint64(k)))
		for range n {
			if p, err := v.ParseFEN(randomFEN(rng)); err == nil {
				positions = append(positions, p)
			}
		}
		p := v.Start()
		for range n {
			ms := p.LegalMoves(nil)
			if len(ms) == 0 || p.Status().Over() {
				p = v.Start()
				continue
			}
			p.Make(ms[rng.IntN(len(ms))])
			positions = append(positions, p.Clone())
		}
		checks := 0
		for _, p := range positions {
			fen := p.FEN()
			want := nFromFEN(t, o, fen).inCheck(int(p.Turn()), true)
			if got := p.InCheck(); got != want {
				t.Errorf("%s: InCheck %v, the naive check (every reply made) %v", fen, got, want)
			}
			if want {
				checks++
			}
		}
		if checks < len(positions)/10 || checks == len(positions) {
			t.Errorf("%d checks in %d positions: the comparison needs both answers", checks, len(positions))
		}
	}
}

// TestChecked: the square of the King in check, also when it rides in a
// Rook (its stack's square), and none out of check.
func TestChecked(t *testing.T) {
	v := newVariant(t, nil)
	tests := []struct{ fen, want string }{
		{"4k3/8/8/8/8/8/8/4RK2 b - - 0 1 b - 0", "[e8]"},
		{"4K3/8/8/8/3(Rk)4/5N2/8/8 b - - 0 1 w - 0", "[d4]"},
		{"4K3/8/8/8/3(Rk)4/8/8/8 b - - 0 1 w - 0", "[]"},
		{"8/8/8/8/8/k7/pq6/R3K3 b Q - 0 1 w - 0", "[a3]"},
	}
	for _, tt := range tests {
		p := parse(t, v, tt.fen)
		if got := fmt.Sprint(p.Checked(nil)); got != tt.want {
			t.Errorf("%s: Checked = %s, want %s", tt.fen, got, tt.want)
		}
	}
}
