package main

import (
	"strings"
	"testing"
)

const csTable = "{P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q}"

// TestCsipgsCommands checks the commands on csipgs Chess: perft, moves,
// apply (actions and design changes are move tokens), show, search and
// design.
func TestCsipgsCommands(t *testing.T) {
	tests := []cmdCase{
		// X1: the five king moves; then each is followed by the design
		// phase: no change, 6 slots x 5 re-adoptions, 6 x 20 catalogue
		// designs = 151 moves, 755 in all.
		{"perft 1", []string{"perft", "-variant", "csipgs", "-depth", "1"}, 0, []string{"nodes 5\n"}, nil, 0},
		{"perft 2", []string{"perft", "-variant", "csipgs", "-depth", "2"}, 0, []string{"nodes 755\n"}, nil, 0},
		{"perft divide", []string{"perft", "-variant", "csipgs", "-depth", "2", "-divide"}, 0, []string{"e1e2: 151\n"}, nil, 0},
		{"moves", []string{"moves", "-variant", "csipgs"}, 0, []string{"e1e2\n", "e1d1\n"}, nil, 5},
		{"moves design phase", []string{"moves", "-variant", "csipgs", "-fen", "4k3/8/8/8/8/8/8/4K3 w& 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + csTable},
			0, []string{"&-\n", "&Q>A=FfR\n", "&P>R\n"}, nil, 151},
		{"apply turn tokens", []string{"apply", "-variant", "csipgs", "Ke2", "&-", "Ke7", "&Q>A=FfR", "+P", "&-"}, 0,
			[]string{"8/4k3/8/8/8/8/4K3/8 b 0/1 P/- PRNBKQ/PRNBKA 3 2 {A=FfR,B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}\n", "ongoing"}, nil, 2},
		{"apply buy too dear", []string{"apply", "-variant", "csipgs", "+Q"}, 1, nil, []string{`move 1: illegal move "+Q": 8 short: Q costs 9, 1 available with this turn's credit`}, 0},
		{"apply design first", []string{"apply", "-variant", "csipgs", "&-"}, 1, nil, []string{`illegal move "&-": a design change comes after the action`}, 0},
		{"apply stalemate loses", []string{"apply", "-variant", "csipgs", "-fen", "4k3/8/8/8/8/1q6/8/K7 b 0/8 -/- PRNBKQ/PRNBKQ 0 30 " + csTable, "Kd8", "&-"}, 0,
			[]string{"0-1"}, nil, 2},
		{"show", []string{"show", "-variant", "csipgs"}, 0, []string{" 1  . . . . K . . .\n", "5 legal moves"}, nil, 0},
		{"search mate", []string{"search", "-variant", "csipgs", "-fen", "4k3/8/4K3/8/8/8/8/R7 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + csTable, "-depth", "3"}, 0,
			[]string{"mate 1", "Ra8 &-#", "best Ra8 (a1a8)"}, nil, 0},
		{"search buys", []string{"search", "-variant", "csipgs", "-fen", "4k3/8/8/8/8/8/8/4K3 w 4/0 -/- PRNBKQ/PRNBKQ 0 10 " + csTable, "-depth", "4"}, 0,
			[]string{"best +R"}, nil, 0},
		{"search design phase", []string{"search", "-variant", "csipgs", "-fen", "4k3/8/8/8/8/8/8/4K3 w& 0/0 -/- PRNBKQ/PRNBKQ 0 1 " + csTable}, 0,
			[]string{"design phase", "best &"}, nil, 0},
		{"design FfR", []string{"design", "FfR"}, 0, []string{"design FfR\n", "price 4 (exact cost 4, rounded up)\n", "colour-bound no\n",
			"  . . . . x . . . .\n", "  . . . x x x . . .\n", "  . . . . * . . . .\n", "  . . . x . x . . .\n"}, nil, 0},
		{"design bishop", []string{"design", "B"}, 0, []string{"price 3 (exact cost 2.97, rounded up)\n", "colour-bound yes\n"}, nil, 0},
		{"design float trap", []string{"design", "royal-bNbW"}, 0, []string{"price 6 (exact cost 6, rounded up)\n", "royal: yes"}, nil, 0},
		{"design pawn", []string{"design", "-size", "5", "fmWfcF"}, 0, []string{"price 2 (exact cost 1.08, rounded up)\n",
			"  . . . . .\n  . c m c .\n  . . * . .\n"}, nil, 0},
		{"design A-a", []string{"design", "royal-fmG"}, 0, []string{"price 3 (exact cost 2.268, rounded up)\n"}, nil, 0},
		{"design A-a option", []string{"design", "-opt", "GForwardMultiplier=0.5", "royal-fmG"}, 0, []string{"price 2 (exact cost 1.62, rounded up)\n"}, nil, 0},
		{"design two", []string{"design", "N", "NN"}, 0, []string{"design N\n", "design NN\n", "price 6 (exact cost 5.5"}, nil, 0},
		{"design fault", []string{"design", "FfX"}, 1, nil, []string{`design "FfX": at 3 ('X')`, "\n  FfX\n    ^\n"}, 0},
		{"design range", []string{"design", "R4"}, 1, nil, []string{"ranges are not priced", "\n  R4\n   ^\n"}, 0},
		{"design empty", []string{"design", ""}, 1, nil, []string{`design ""`}, 0},
		{"design none", []string{"design"}, 2, nil, []string{"give a design"}, 0},
		{"design bad size", []string{"design", "-size", "4", "N"}, 2, nil, []string{"-size 4"}, 0},
		{"design bad option", []string{"design", "-opt", "GForwardMultiplier=0.3", "N"}, 1, nil, []string{"GForwardMultiplier"}, 0},
	}
	runCmdCases(t, tests)
}

// TestPlayCsipgs plays a scripted csipgs session: the economy on the
// board, the shop, a buy, the design editor with a fault and a price, a
// design put into a slot (outside the catalogue, so the game's catalogue
// grows and the record replays), and the engine's whole turns.
func TestPlayCsipgs(t *testing.T) {
	input := strings.Join([]string{
		"shop", "Ke2", "+P", "&-", "shop", "+P", "&-",
		"design FfR",
		"P@e3", "design", "royal-R4", "WDA", "put Z", "put Q",
		"shop", "fen", "quit",
	}, "\n") + "\n"
	out, errs, st := playSession(t, []string{"csipgs", "-depth", "2"}, input)
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q\n%s", st, errs, out)
	}
	wantAll(t, out,
		"white: treasury 0 zorkmids, to spend with this turn's credit 1 zorkmid, reserve -, types P=fmWfcF(2) R=R(5) N=N(3) B=B(3) K=royal-K(12) Q=Q(9)\n",
		"the shop of white (treasury 0, 1 with this turn's credit):\n  P  fmWfcF         2  1 short: P costs 2, 1 available with this turn's credit\n",
		"1. white> Ke2\nyou play 1. Ke2 (e1e2)\n",
		"white to move (you), design phase\n",
		`illegal move "+P": a buy is an action; this is the design phase`,
		"  P  fmWfcF         2  buy with +P\n",
		"you play 2. +P\n",
		"reserve P,",
		"FfR: price 4 (exact 4), not colour-bound\n",
		"design> royal-R4\ndesign \"royal-R4\": at 8 ('4'): ranges are not priced in csipgs\n  royal-R4\n         ^\n",
		"design> WDA\nWDA: price 5 (exact 4.5), not colour-bound\n",
		"design> put Z\nrefused: csipgs: no slot of white holds the letter \"Z\"",
		"design> put Q\nyou play 3. &Q>",
		"=WDA\n",
		"engine (black) plays",
		"engine (black) plays 1... &",
	)
	fen := after(out, "> fen\n")
	if !strings.Contains(fen, "=WDA") {
		t.Errorf("fen after the design: %q", fen)
	}
}

// TestPlayCsipgsModerated checks the moderated mode in the terminal: the
// human sees its view (not the engine's king), and the engine's moves on
// the board stay hidden.
func TestPlayCsipgsModerated(t *testing.T) {
	out, errs, st := playSession(t, []string{"csipgs", "-opt", "Moderated=1", "-depth", "2"}, "Ke2\n&-\nfen\nquit\n")
	if st != 0 || errs != "" {
		t.Fatalf("status %d, stderr %q\n%s", st, errs, out)
	}
	wantAll(t, out, "engine (black): an action out of sight\n")
	if strings.Contains(out, " k ") {
		t.Errorf("the board shows the black king:\n%s", out)
	}
	if fen := after(out, "> fen\n"); strings.Contains(strings.SplitN(fen, " ", 2)[0], "k") {
		t.Errorf("the FEN shows the black king: %s", fen)
	}
}

// TestPlayCsipgsModerator checks the moderated mode's moderator and view
// in the terminal: a legal capture of a piece the human cannot see is
// played, the view's halfmove counter does not tell the engine's unseen
// king move from a pawn move, and the game's seed is told so that the
// engine's guesses replay.
func TestPlayCsipgsModerator(t *testing.T) {
	unseen := []string{"csipgs", "-opt", "Moderated=1", "-opt", "Visibility=Radius(1)", "-depth", "1",
		"-fen", "4k3/8/8/8/n7/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + csTable}
	// With seed 2 the engine answers Kd1 with a king move: the true
	// counter is 9.
	quiet := []string{"csipgs", "-seed", "2", "-opt", "Moderated=1", "-depth", "2",
		"-fen", "k7/p7/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 7 10 " + csTable}
	for _, tt := range []struct {
		name   string
		args   []string
		input  string
		want   []string
		absent string
	}{
		{"unseen capture", unseen, "Ra1a4\n&-\nfen\nquit\n", []string{"you play 10. Ra4 (a1a4)\n", "\n8/8/8/8/R7/8/8/4K3 w "}, "illegal, try again"},
		{"halfmove counter", quiet, "Kd1\n&-\nfen\nquit\n", []string{"\n8/8/8/8/8/8/8/3K4 w 1/1 -/- PRNBKQ/ARNBKQ 0 11 "}, ""},
		{"seed", quiet, "quit\n", []string{"seed 2 (play again with -seed 2)"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, st := playSession(t, tt.args, tt.input)
			if st != 0 || errs != "" {
				t.Fatalf("status %d, stderr %q\n%s", st, errs, out)
			}
			wantAll(t, out, tt.want...)
			if tt.absent != "" && strings.Contains(out, tt.absent) {
				t.Errorf("output has %q:\n%s", tt.absent, out)
			}
		})
	}
}
