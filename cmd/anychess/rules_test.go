package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
)

// c13FEN is worked example C13 of Crazy Chess: the knight on b1 may take
// the pawn on b3 on its way to c3 under KnightPath=L, not under Mao.
const c13FEN = "7k/8/8/8/8/1p6/8/1N5K w - - 0 1 b - 0"

// chatrangBare is a Chatrang position in which Black, to move, has a bare
// king; csipgsNoRoyal a csipgs position in which White has no royal piece.
const (
	chatrangBare  = "4k3/8/8/8/8/8/8/R3K3 b - - 0 1"
	csipgsNoRoyal = "4k3/8/8/8/8/8/8/4R3 w 0/0 -/- PRNBKQ/PRNBKQ 0 1 {B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"
	// csipgsMove10 is two bare royal kings at move 10.
	csipgsMove10 = "4k3/8/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 {B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}"
)

// TestRulesCommands checks the commands' answers on variant rules: every
// option a variant has may be set with -opt.
func TestRulesCommands(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{"crazy option default path", []string{"perft", "-variant", "crazy", "-fen", c13FEN, "-depth", "1"}, 0, []string{"nodes 23\n"}, nil, 0},
		{"crazy option KnightPath", []string{"perft", "-variant", "crazy", "-opt", "KnightPath=Mao", "-fen", c13FEN, "-depth", "1"}, 0, []string{"nodes 21\n"}, nil, 0},
		{"crazy option StackExit", []string{"show", "-variant", "crazy", "-opt", "StackExit=TopOnly", "-opt", "AllRoundRequiresVictim=false"}, 0, nil, nil, 0},
		{"crazy unknown option", []string{"show", "-variant", "crazy", "-opt", "Foo=1"}, 1, nil, []string{"crazychess has the options Denial, StackExit, KingStep1Immunity, KnightPath"}, 0},
		{"crazy dead material deniable", []string{"apply", "-variant", "crazy", "-fen", "7k/8/8/8/R3q3/8/8/K7 w - - 0 1 b - 0", "Ra4xe4", "DENY"}, 0,
			[]string{"7k/8/8/8/R3q3/8/8/K7 w - - 0 1 w b 1\n", "ongoing"}, nil, 0},
		{"moves chatrang bare king", []string{"moves", "-variant", "chatrang", "-fen", chatrangBare}, 1, nil, []string{"anychess moves: the game is over: 1-0 (black has a bare king and loses)"}, 0},
		{"show chatrang bare king", []string{"show", "-variant", "chatrang", "-fen", chatrangBare}, 0, []string{"black to move; the game is over: 1-0 (black has a bare king and loses)\n"}, nil, 0},
		{"moves vazir VZ-15a", []string{"moves", "-variant", "vazir", "-fen", "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t3"}, 1, nil, []string{"the game is over: 0-1", "VZ-15a"}, 0},
		{"moves vazir extra move", []string{"moves", "-variant", "vazir", "-fen", "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t3K"}, 0, []string{"h1g1\n"}, nil, 3},
		{"moves csipgs without a royal", []string{"moves", "-variant", "csipgs", "-fen", csipgsNoRoyal}, 1, nil, []string{"the game is over: 0-1 (white has no royal piece left and loses)"}, 0},
		{"show csipgs without a royal", []string{"show", "-variant", "csipgs", "-fen", csipgsNoRoyal}, 0, []string{"white to move; the game is over: 0-1"}, nil, 0},
		{"moves chess checkmate", []string{"moves", "-fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"}, 1, nil, []string{"the game is over: 1-0 (black is checkmated and loses)"}, 0},
		{"chatrang cap from the FEN", []string{"show", "-variant", "chatrang", "-fen", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1300"}, 0,
			[]string{"white to move; 24 legal moves; ongoing\n"}, nil, 0},
		{"csipgs MaxTurns from the FEN", []string{"show", "-variant", "csipgs", "-opt", "MaxTurns=3", "-fen", csipgsMove10}, 0,
			[]string{"white to move; 5 legal moves; ongoing\n"}, nil, 0},
		{"csipgs MaxTurns one turn", []string{"apply", "-variant", "csipgs", "-opt", "MaxTurns=1", "-fen", csipgsMove10, "e1e2", "&-"}, 0,
			[]string{"ongoing"}, nil, 0},
		{"csipgs MaxTurns reached", []string{"apply", "-variant", "csipgs", "-opt", "MaxTurns=1", "-fen", csipgsMove10, "e1e2", "&-", "e8e7", "&-"}, 0,
			[]string{" 2 11 {", "1/2-1/2 (the move limit of 2 plies)"}, nil, 0},
		{"crazy illegal king move", []string{"apply", "-variant", "crazy", "Ke1-e2-e1"}, 1, nil, []string{`illegal move "Ke1-e2-e1": white has no such move`}, 0},
		{"crazy knight move not deniable", []string{"apply", "-variant", "crazy", "Ng1-f3", "DENY"}, 1, nil,
			[]string{`move 2: illegal move "DENY": a Knight move without a path capture cannot be denied (CC-7)`}, 0},
		{"crazy knight move replayable", []string{"apply", "-variant", "crazy", "-opt", "KnightDenial=Replayable", "Ng1-f3", "DENY", "Ng1-f3"}, 0,
			[]string{" w b 1\n", "ongoing"}, nil, 0},
		{"design unknown option", []string{"design", "-opt", "Foo=1", "N"}, 1, nil, []string{"-opt Foo: csipgs has the options Relay, "}, 0},
		{"design relay without Relay", []string{"design", "relay-bNbW"}, 1, nil, []string{`"relay-bNbW" is a relay design`, "Relay=1"}, 0},
		{"design relay with Relay=0", []string{"design", "-opt", "Relay=0", "relay-bNbW"}, 1, nil, []string{"relay design"}, 0},
		{"design relay with Relay=1", []string{"design", "-opt", "Relay=1", "relay-bNbW"}, 0, []string{"price 3 (exact cost 3, rounded up)\n", "relay: yes (price x2)\n"}, nil, 0},
	})
}

// TestVerifyStart: verify says where the start of a game came from when
// the seed does not vouch for it.
func TestVerifyStart(t *testing.T) {
	const seed = 42
	chacha := game.ChaCha8Seed([32]byte{1, 2, 3, 4, 5, 6, 7, 8})
	nonce := strings.Repeat("5a", 16)
	reg := catalog.MustDefault()
	vz := must[*rules.Variant](t)(reg.Get("vazir"))
	chess := must[*rules.Variant](t)(reg.Get("chess"))
	for _, c := range []struct {
		name  string
		v     *rules.Variant
		start func() (*rules.Position, *game.Roller) // the start and the dice roller
		want  string
		not   string
		seed  game.Seed // the dice's seed; PCG seed 42 if zero
	}{
		{"drawn by its own ChaCha8 stream", vz, func() (*rules.Position, *game.Roller) {
			return must[*rules.Position](t)(vz.Setup(chacha.Setup().Roller())), chacha.Roller()
		}, "; the start was drawn from the seed\n", "given", chacha},
		{"given, ChaCha8", vz, func() (*rules.Position, *game.Roller) {
			return must[*rules.Position](t)(vz.ParseFEN("r56k0/8/8/8/8/8/8/R36K0 w - - 0 1 t0")), chacha.Roller()
		}, "; the start was given, not drawn from the seed", "drawn from the seed\n", chacha},
		{"drawn by its own stream", vz, func() (*rules.Position, *game.Roller) {
			return must[*rules.Position](t)(vz.Setup(game.NewRoller(game.SetupSeed(seed)))), game.NewRoller(seed)
		}, "; the start was drawn from the seed\n", "given", game.Seed{}},
		{"drawn by the dice", vz, func() (*rules.Position, *game.Roller) {
			r := game.NewRoller(seed)
			return must[*rules.Position](t)(vz.Setup(r)), r
		}, "; the start was drawn from the seed\n", "given", game.Seed{}},
		{"given", vz, func() (*rules.Position, *game.Roller) {
			return must[*rules.Position](t)(vz.ParseFEN("r56k0/8/8/8/8/8/8/R36K0 w - - 0 1 t0")), game.NewRoller(seed)
		}, "; the start was given, not drawn from the seed", "drawn from the seed\n", game.Seed{}},
		{"chess set up", chess, func() (*rules.Position, *game.Roller) {
			return must[*rules.Position](t)(chess.ParseFEN("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")), game.NewRoller(seed)
		}, "; the start was given (a set-up position)\n", "drawn", game.Seed{}},
		{"chess from the start", chess, func() (*rules.Position, *game.Roller) {
			return chess.Start(), game.NewRoller(seed)
		}, "matches sha256:", "start", game.Seed{}},
	} {
		start, dice := c.start()
		g := game.New(c.v, start)
		sd := c.seed
		if sd == (game.Seed{}) {
			sd = game.PCGSeed(seed)
		}
		g.SetCommitment(sd, nonce)
		for range 40 {
			p := g.Position()
			if p.Status().Over() {
				break
			}
			m := p.LegalMoves(nil)[0]
			k := must[int](t)(rules.Choose(dice, p.Outcomes(m)))
			if err := g.Play(m, k); err != nil {
				t.Fatal(err)
			}
		}
		g.Reveal(sd, nonce)
		var sb strings.Builder
		if err := pgn.Write(&sb, notation.WriteGame(g)); err != nil {
			t.Fatal(err)
		}
		out, errs, st := runCmdIn(sb.String(), "verify")
		if st != 0 || !strings.Contains(out, "game 1: ok: ") || !strings.Contains(out, c.want) || strings.Contains(out, c.not) {
			t.Errorf("%s: status %d, output %q, stderr %q; want %q without %q", c.name, st, out, errs, c.want, c.not)
		}
	}
}

// must returns a function that passes on a result and fails the test on
// its error: must[T](t)(f()).
func must[T any](t *testing.T) func(T, error) T {
	return func(x T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
}

// runCmdIn runs the command with stdin.
func runCmdIn(stdin string, args ...string) (stdout, stderr string, status int) {
	var out, errb bytes.Buffer
	status = run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), status
}
