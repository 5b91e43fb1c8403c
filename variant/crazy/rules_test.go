package crazy

import (
	"testing"
)

// ruleCase is a position, moves that must and must not be legal, and
// optionally moves to play and the FEN after them.
type ruleCase struct {
	rule, name string
	edit       func(*Options)
	fen        string
	legal      []string
	illegal    []string
	play       []string
	after      string
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.rule+" "+c.name, func(t *testing.T) {
			p := parse(t, newVariant(t, c.edit), c.fen)
			for _, m := range c.legal {
				if !isLegal(p, m) {
					t.Errorf("%s is not legal; legal: %v", m, legal(p))
				}
			}
			for _, m := range c.illegal {
				if isLegal(p, m) {
					t.Errorf("%s is legal", m)
				}
			}
			if c.play == nil {
				return
			}
			play(t, p, c.play...)
			if got := p.FEN(); got != c.after {
				t.Errorf("after %v:\n got %s\nwant %s", c.play, got, c.after)
			}
		})
	}
}

func TestPieceRules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{rule: "CC-13", name: "ordinary captures take the enemy base only",
			fen:     "7k/8/8/(rq)7/8/1N6/8/R6K w - - 0 1 b - 0",
			legal:   []string{"Ra1xa5", "Ra1^a5", "Nb3xa5", "Nb3xa5/1"},
			illegal: []string{"Ra1xa5/1", "Ra1-a5"}},
		{rule: "CC-13", name: "no capture of an own base",
			fen:     "7k/8/8/8/B7/8/8/R6K w - - 0 1 b - 0",
			illegal: []string{"Ra1xa4", "Ra1^a4"}},
		{rule: "CC-14", name: "entering a rook of either colour, with the mover's cargo",
			fen:   "7k/8/8/8/8/5R2/8/6NK w - - 0 1 b - 0",
			legal: []string{"Ng1^f3"}, play: []string{"Ng1^f3"},
			after: "7k/8/8/8/8/5(RN)2/8/7K b - - 1 1 b - 0"},
		{rule: "CC-14", name: "a slider's path must be clear",
			fen:     "7k/8/8/8/8/4R3/3P4/2B4K w - - 0 1 b - 0",
			illegal: []string{"Bc1^e3"}},
		{rule: "CC-14", name: "a pawn does not enter on its own first row",
			fen:     "7k/8/8/8/8/8/1P6/1R5K w - - 0 1 b - 0",
			illegal: []string{"b2^b1", "b2-b1"}},
		{rule: "CC-15", name: "a rook passenger takes its cargo",
			fen:   "7k/8/8/8/3(RRP)4/8/8/7K w - - 0 1 b - 0",
			play:  []string{"Rd4/1-g4"},
			after: "7k/8/8/8/3R2(RP)1/8/8/7K b - - 1 1 b - 0"},
		{rule: "CC-15", name: "above a leaving piece the pieces move down",
			fen:   "7k/8/8/8/3(RNP)4/8/8/7K w - - 0 1 b - 0",
			legal: []string{"d4/2-d5", "d4/2-c4"},
			play:  []string{"Nd4/1-f5"},
			after: "7k/8/8/5N2/3(RP)4/8/8/7K b - - 1 1 b - 0"},
		{rule: "CC-15", name: "a passenger moves whoever owns the base",
			fen:   "7k/8/8/8/3(rN)4/8/8/7K w - - 0 1 b - 0",
			legal: []string{"Nd4/1-f5", "Nd4/1-e6"}},
		{rule: "CC-15", name: "StackExit=TopOnly",
			edit:    func(o *Options) { o.StackExit = TopOnly },
			fen:     "7k/8/8/8/3(RNP)4/8/8/7K w - - 0 1 b - 0",
			legal:   []string{"d4/2-d5", "Rd4-a4"},
			illegal: []string{"Nd4/1-f5"}},
		{rule: "CC-16", name: "a base rook carries passengers of both colours",
			fen:   "7k/8/8/8/8/8/8/(RnP)6K w - - 0 1 b - 0",
			play:  []string{"Ra1-a4"},
			after: "7k/8/8/8/(RnP)7/8/8/7K b - - 1 1 b - 0"},
		{rule: "CC-17", name: "two steps, out and back, and a passenger king leaving",
			fen:   "7k/8/8/8/8/8/8/5(RK)2 w - - 0 1 b - 0",
			legal: []string{"Kf1/1-g2-h3", "Kf1/1-g2^f1", "Kf1/1-e2-e3", "Kf1/1-g1-h1"}},
		{rule: "CC-17", name: "a king move is exactly two steps",
			fen:     "4k3/8/8/8/8/8/8/4K3 w - - 0 1 b - 0",
			legal:   []string{"Ke1-e2-e1", "Ke1-d2-c3"},
			illegal: []string{"Ke1-e2", "Ke1-e2-e4"}},
		{rule: "CC-19", name: "only the final square must be safe",
			fen:     "k7/8/8/7r/3K4/8/8/8 w - - 0 1 b - 0",
			legal:   []string{"Kd4-d5-d6", "Kd4-e5-e6"},
			illegal: []string{"Kd4-d5-e5", "Kd4-e4-e5"}},
		{rule: "CC-20", name: "the king is immune in step 1; the rising bishop lands after step 2",
			fen:     "k7/8/8/8/4b3/3K4/8/8 w - - 0 1 b - 0",
			illegal: []string{"Kd3xe4-d3", "Kd3xe4"},
			play:    []string{"Kd3xe4-e3"},
			after:   "k7/8/8/8/4b*3/4K3/8/8 b - - 0 1 b - 0"},
		{rule: "CC-20", name: "KingStep1Immunity=None: the rising bishop takes the king",
			edit:    func(o *Options) { o.KingStep1Immunity = NoImmunity },
			fen:     "k7/8/8/8/4b3/3K4/8/8 w - - 0 1 b - 0",
			illegal: []string{"Kd3xe4-e3"},
			legal:   []string{"Kd3xe4"}},
		{rule: "CC-20", name: "revenge skips the king's square in step 1",
			fen:   "k7/8/8/8/4q3/3K4/8/8 w - - 0 1 b - 0",
			play:  []string{"Kd3xe4-e3"},
			after: "k7/8/8/8/8/4K3/8/8 b - - 0 1 b - 0"},
		{rule: "CC-20b", name: "all-round capture of both colours' bases; passengers fall",
			fen:   "k7/8/8/3(rp)N3/3Q4/8/8/7K w - - 0 1 b - 0",
			play:  []string{"Qd4*"},
			after: "k7/8/8/3p4/3Q4/8/8/7K b - - 0 1 b - 0"},
		{rule: "CC-20b", name: "AllRoundHitsPassengers takes whole stacks",
			edit:  func(o *Options) { o.AllRoundHitsPassengers = true },
			fen:   "k7/8/8/3(rp)N3/3Q4/8/8/7K w - - 0 1 b - 0",
			play:  []string{"Qd4*"},
			after: "k7/8/8/8/3Q4/8/8/7K b - - 0 1 b - 0"},
		{rule: "CC-20b", name: "an all-round capture needs a victim",
			fen:     "k7/8/8/8/3Q4/8/8/7K w - - 0 1 b - 0",
			illegal: []string{"Qd4*"}},
		{rule: "CC-20b", name: "AllRoundRequiresVictim=false allows the pass",
			edit:  func(o *Options) { o.AllRoundRequiresVictim = false },
			fen:   "k7/8/8/8/3Q4/8/8/7K w - - 0 1 b - 0",
			legal: []string{"Qd4*"}},
		{rule: "CC-20b", name: "a queen passenger's all-round capture spares her rook",
			fen:   "k7/8/8/3n4/3(RQ)4/8/8/7K w - - 0 1 b - 0",
			play:  []string{"Qd4/1*"},
			after: "k7/8/8/8/3(RQ)4/8/8/7K b - - 0 1 b - 0"},
		{rule: "CC-21", name: "a path capture needs an empty or rook destination",
			fen:     "7k/8/8/8/8/2p5/1p6/1N5K w - - 0 1 b - 0",
			legal:   []string{"Nb1xc3"},
			illegal: []string{"Nb1xc3(xb2)", "Nb1-c3(xb2)"}},
		{rule: "CC-21", name: "a path capture entering a rook",
			fen:   "7k/8/8/8/8/2R5/1p6/1N5K w - - 0 1 b - 0",
			play:  []string{"Nb1^c3(xb2)"},
			after: "7k/8/8/8/8/2(RN)5/8/7K b - - 0 1 b - 0"},
		{rule: "CC-21", name: "a knight takes a passenger at any depth and ends on top",
			fen:   "7k/8/8/8/8/5(Rbp)2/8/6NK w - - 0 1 b - 0",
			play:  []string{"Ng1xf3/1"},
			after: "7k/8/8/8/8/5N2/8/7K b - - 0 1 b - 0"},
		{rule: "CC-25", name: "pawn steps in four directions and double steps along its start row",
			fen:     "7k/8/8/8/8/8/3P4/7K w - - 0 1 b - 0",
			legal:   []string{"d2-d3", "d2-d4", "d2-c2", "d2-e2", "d2-b2", "d2-f2"},
			illegal: []string{"d2-d1"}},
		{rule: "CC-25", name: "no double step from the opponent's start row or from a stack",
			fen:     "7k/3P4/8/8/8/8/3(RP)4/K7 w - - 0 1 b - 0",
			legal:   []string{"d7-d6", "d7-c7", "d2/1-d3", "d2/1-e2"},
			illegal: []string{"d7-d5", "d7-b7", "d2/1-d4", "d2/1-f2"}},
		{rule: "CC-26", name: "a pawn never ends on its own first row",
			fen:     "7k/8/8/8/8/8/8/3(RP)3K w - - 0 1 b - 0",
			legal:   []string{"d1/1-d2"},
			illegal: []string{"d1/1-c1", "d1/1-e1"}},
		{rule: "CC-27", name: "pawns capture only diagonally forward",
			fen:     "7k/8/8/2npn3/2nPn3/2n1n3/8/7K w - - 0 1 b - 0",
			legal:   []string{"d4xc5", "d4xe5", "Dd5:d4"},
			illegal: []string{"d4xd5", "d4xc4", "d4xe4", "d4xc3", "d4xe3"}},
		{rule: "CC-28", name: "forward en passant after a forward double step",
			fen:   "7k/8/8/8/3p4/8/4P3/7K w - - 0 1 b - 0",
			play:  []string{"e2-e4", "d4xe3"},
			after: "7k/8/8/8/8/4p3/8/7K w - - 0 2 b - 0"},
		{rule: "CC-29", name: "a disguise may not end on the pawn's first row",
			fen:     "7k/8/8/8/8/8/3P4/3N3K w - - 0 1 b - 0",
			illegal: []string{"Dd1:d2"}},
		{rule: "CC-29", name: "a base that carries passengers is not swapped away",
			fen:     "7k/8/8/8/3(Rn)4/3P4/8/7K w - - 0 1 b - 0",
			legal:   []string{"Dd4/1:d3"},
			illegal: []string{"Dd4:d3"}},
		{rule: "CC-29", name: "disguise with an own piece, the pawn passenger taking its place",
			fen:   "7k/8/8/8/3N4/3(RP)4/8/7K w - - 0 1 b - 0",
			play:  []string{"Dd4:d3/1"},
			after: "7k/8/8/8/3P4/3(RN)4/8/7K b - - 0 1 b - 0"},
		{rule: "CC-30", name: "a pawn inside a rook on the last row does not promote",
			fen:   "7k/4P3/8/8/8/8/8/4R2K w - - 0 1 b - 0",
			legal: []string{"e7-e8=Q", "e7-e8=N"},
			play:  []string{"e7-e8=R"},
			after: "4R2k/8/8/8/8/8/8/4R2K b - - 0 1 b - 0"},
		{rule: "CC-41", name: "the mover chooses for a pawn that falls onto the last row",
			fen:     "(rP)6k/8/8/8/8/8/8/R6K w - - 0 1 b - 0",
			legal:   []string{"Ra1xa8[a8=Q]", "Ra1xa8[a8=N]"},
			illegal: []string{"Ra1xa8"},
			play:    []string{"Ra1xa8[a8=B]"},
			after:   "B6k/8/8/8/8/8/8/7K b - - 0 1 b - 0"},
		{rule: "CC-41", name: "the opponent's pawn becomes a queen",
			fen:   "(RP)r6/8/6k1/8/8/8/8/7K b - - 0 1 w - 0",
			play:  []string{"Rb8xa8"},
			after: "Q7/8/6k1/8/8/8/8/7K w - - 0 2 w - 0"},
		{rule: "CC-41", name: "the opponent's new queen may make the move illegal",
			fen:     "(RP)r5k/8/8/8/8/8/8/7K b - - 0 1 w - 0",
			illegal: []string{"Rb8xa8"}},
		{rule: "CC-41", name: "OwnerChoosesNextTurn: the owner promotes at the end of its turn",
			edit:  func(o *Options) { o.OffTurnPromotion = OwnerChoosesNextTurn },
			fen:   "(RP)r6/8/6k1/8/8/8/8/7K b - - 0 1 w - 0",
			play:  []string{"Rb8xa8", "Kh1-g1-h1[a8=N]"},
			after: "N7/8/6k1/8/8/8/8/7K b - - 0 2 w - 0"},
		{rule: "CC-48", name: "a pawn that falls inside a stack onto its first row stays",
			fen:   "r6k/8/8/8/8/8/8/(RRP)6K b - - 0 1 w - 0",
			play:  []string{"Ra8xa1"},
			after: "7k/8/8/8/8/8/8/(RP)6K w - - 0 2 w - 0"},
		{rule: "CC-49", name: "a king passenger rides with its rook",
			fen:   "7k/8/8/8/8/8/8/5(RK)2 w - - 0 1 b - 0",
			play:  []string{"Rf1-f4"},
			after: "7k/8/8/8/5(RK)2/8/8/8 b - - 1 1 b - 0"},
	})
}

func TestCastling(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{rule: "CC-18", name: "castling then a second step; the rook's cargo rides",
			fen:   "4k3/8/8/8/8/8/8/4K2(RP) w K - 0 1 b - 0",
			legal: []string{"O-O,g1^f1", "O-O,g1-h1", "O-O,g1-g2", "O-O,g1-h2", "O-O,g1-f2"},
			play:  []string{"O-O,g1-g2"},
			after: "4k3/8/8/8/8/8/6K1/5(RP)2 b - - 1 1 b - 0"},
		{rule: "CC-18", name: "queenside",
			fen:   "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 b - 0",
			legal: []string{"O-O-O,c1^d1", "O-O-O,c1-b1"}},
		{rule: "CC-18", name: "not out of check",
			fen:     "k3r3/8/8/8/8/8/8/4K2R w K - 0 1 b - 0",
			illegal: []string{"O-O,g1^f1"}},
		{rule: "CC-18", name: "not through an attacked square",
			fen:     "k4r2/8/8/8/8/8/8/4K2R w K - 0 1 b - 0",
			illegal: []string{"O-O,g1-h2"}},
		{rule: "CC-18", name: "the landing square may be attacked",
			fen:     "k5r1/8/8/8/8/8/8/4K2R w K - 0 1 b - 0",
			legal:   []string{"O-O,g1^f1", "O-O,g1-f2"},
			illegal: []string{"O-O,g1-g2"}},
		{rule: "CC-18", name: "CastleLandingMayBeAttacked=false",
			edit:    func(o *Options) { o.CastleLandingMayBeAttacked = false },
			fen:     "k5r1/8/8/8/8/8/8/4K2R w K - 0 1 b - 0",
			illegal: []string{"O-O,g1^f1", "O-O,g1-f2"}},
		{rule: "CC-18", name: "the squares between must be empty",
			fen:     "4k3/8/8/8/8/8/8/4KN1R w K - 0 1 b - 0",
			illegal: []string{"O-O,g1^f1"}},
		{rule: "CC-38", name: "a king that moved out and back loses its rights",
			fen:   "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 b - 0",
			play:  []string{"Ke1-e2-e1"},
			after: "r3k2r/8/8/8/8/8/8/R3K2R b kq - 1 1 b - 0"},
		{rule: "CC-38", name: "a rook that moves loses its right, entering it does not",
			fen:   "r3k2r/8/8/8/8/6N1/8/R3K2R w KQkq - 0 1 b - 0",
			play:  []string{"Ng3^h1", "Ra8-a7"},
			after: "4k2r/r7/8/8/8/8/8/R3K2(RN) w KQk - 2 2 b - 0"},
	})
}
