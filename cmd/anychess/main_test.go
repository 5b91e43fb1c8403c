package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/search"
)

func runCmd(args ...string) (stdout, stderr string, status int) {
	stdin := ""
	if len(args) > 0 && args[0] == "uci" {
		stdin = "uci\nquit\n"
	}
	if len(args) > 0 && args[0] == "xboard" {
		stdin = "xboard\nprotover 2\nquit\n"
	}
	return runCmdIn(stdin, args...)
}

// vazirFEN is a Vazir position in RFEN: White's rook of rank 5 on d1 may
// try to take Black's rook of rank 5 on d5.
const vazirFEN = "k07/8/8/3r54/8/8/8/3R53K0 w - - 0 1 t0"

// TestVazirSeededStart checks that a seeded Vazir start is drawn with
// mirrored ranks, the same for the same seed and different for another.
func TestVazirSeededStart(t *testing.T) {
	start := func(seed string) string {
		out, errs, st := runCmd("apply", "-variant", "vazir", "-seed", seed)
		if st != 0 {
			t.Fatalf("seed %s: status %d: %s", seed, st, errs)
		}
		return strings.Fields(out)[0]
	}
	a, b, c := start("3"), start("3"), start("4")
	if a != b || a == c {
		t.Errorf("seed 3 gave %s and %s, seed 4 %s", a, b, c)
	}
	ranks := strings.Split(a, "/")
	if strings.ToUpper(ranks[0]) != ranks[7] || strings.ToUpper(ranks[1]) != ranks[6] {
		t.Errorf("ranks not mirrored: %s", a)
	}
}

// cmdCase is a command line, its exit status and what it must print.
type cmdCase struct {
	name   string
	args   []string
	status int
	out    []string // substrings of stdout
	err    []string // substrings of stderr
	lines  int      // number of stdout lines, if > 0
}

// runCmdCases runs each case as a subtest and checks its status and
// output.
func runCmdCases(t *testing.T, tests []cmdCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, st := runCmd(tt.args...)
			if st != tt.status {
				t.Errorf("status %d, want %d\nstdout: %s\nstderr: %s", st, tt.status, out, errs)
			}
			for _, s := range tt.out {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tt.err {
				if !strings.Contains(errs, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errs)
				}
			}
			if tt.lines > 0 {
				if n := strings.Count(out, "\n"); n != tt.lines {
					t.Errorf("%d lines, want %d:\n%s", n, tt.lines, out)
				}
			}
		})
	}
}

func TestCommands(t *testing.T) {
	tests := []cmdCase{
		{"demo", nil, 0, []string{"Usage:", "wnegkmhenw/pppppppppp", "1-0 (black is checkmated and loses)"}, nil, 0},
		{"help", []string{"help"}, 0, []string{"perft", "apply"}, nil, 0},
		{"unknown", []string{"frobnicate"}, 2, nil, []string{`unknown command "frobnicate"`}, 0},
		{"perft", []string{"perft", "-depth", "3"}, 0, []string{"nodes 8902\n", "nps "}, nil, 0},
		{"perft gs divide", []string{"perft", "-variant", "greatshatranj", "-depth", "2", "-divide"}, 0,
			[]string{"j2j3: 30\n", "moves 30\n", "nodes 900\n"}, nil, 34},
		{"perft fen", []string{"perft", "-fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "-depth", "2"}, 0,
			[]string{"nodes 2039\n"}, nil, 0},
		{"perft no depth", []string{"perft"}, 2, nil, []string{"-depth must be"}, 0},
		{"serve bad proxy", []string{"serve", "-trusted-proxies", "10.0.0.0/8,proxy.example"}, 1, nil, []string{`trusted proxy "proxy.example"`}, 0},
		{"perft bad variant", []string{"perft", "-variant", "nosuch", "-depth", "1"}, 1, nil, []string{`unknown variant "nosuch"`}, 0},
		{"moves chatrang", []string{"moves", "-variant", "chatrang"}, 0, []string{"c1h6\n", "d1c3\n"}, nil, 24},
		{"moves san", []string{"moves", "-san"}, 0, []string{"Nf3\n", "e4\n"}, nil, 20},
		{"moves bad fen", []string{"moves", "-fen", "8/8/8 w"}, 1, nil, []string{"bad FEN", "board"}, 0},
		{"apply mate", []string{"apply", "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"}, 0,
			[]string{"r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4\n", "1-0 (black is checkmated and loses)\n"}, nil, 2},
		{"apply coords", []string{"apply", "-variant", "greatshatranj", "j2j3", "a7a6", "i1h3"}, 0,
			[]string{"wnegkmhenw/1ppppppppp/p9/10/10/7N1P/PPPPPPPPP1/WNEGKMHE1W b - - 1 2\n", "ongoing"}, nil, 0},
		{"apply illegal", []string{"apply", "e4", "e5", "Ke3"}, 1, nil, []string{`move 3: illegal move "Ke3"`}, 0},
		{"apply after end", []string{"apply", "f3", "e5", "g4", "Qh4", "a3"}, 1, nil, []string{"the game is over"}, 0},
		{"apply chatrang bare king", []string{"apply", "-variant", "chatrang", "-fen", "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1", "Kxe2"}, 0,
			[]string{"1-0 (black has a bare king and loses)"}, nil, 0},
		// Vazir (rook rank 5 against rook rank 5, success 6/11): the rook
		// has 10 moves and the king 3, and Rxd5 counts twice (hit, miss).
		{"vazir perft", []string{"perft", "-variant", "vazir", "-fen", vazirFEN, "-depth", "1"}, 0, []string{"nodes 14\n"}, nil, 0},
		{"vazir apply miss", []string{"apply", "-variant", "vazir", "-fen", vazirFEN, "Rxd5~"}, 0,
			[]string{"k07/8/8/3r54/8/8/8/3R53K0 w - - 0 1 t1\n"}, nil, 2},
		{"vazir apply hit", []string{"apply", "-variant", "vazir", "-fen", vazirFEN, "d1d5"}, 0,
			[]string{"k07/8/8/3R54/8/8/8/7K0 b - - 0 1 t0\n"}, nil, 2},
		{"vazir apply MPT 1", []string{"apply", "-variant", "vazir", "-opt", "MPT=1", "-fen", vazirFEN, "Rxd5~"}, 0,
			[]string{"k07/8/8/3r54/8/8/8/3R53K0 b - - 1 1 t0\n"}, nil, 2},
		{"vazir apply roll", []string{"apply", "-variant", "vazir", "-fen", vazirFEN, "-roll", "-seed", "5", "Rxd5"}, 0,
			[]string{"d1d5~\n", " t1\n"}, nil, 3},
		{"vazir apply bad mark", []string{"apply", "-variant", "vazir", "-fen", vazirFEN, "Kh2~"}, 1, nil,
			[]string{`Kh2 has no outcome marked "~"`}, 0},
		{"vazir bad option", []string{"show", "-variant", "vazir", "-opt", "Foo=1"}, 1, nil, []string{"vazir has the options MPT, RankInit"}, 0},
		{"vazir bad option value", []string{"show", "-variant", "vazir", "-opt", "MPT=0"}, 1, nil, []string{"MPT"}, 0},
		{"chess has no options", []string{"show", "-opt", "MPT=2"}, 1, nil, []string{"chess has no options"}, 0},
		{"variants", []string{"variants"}, 0, []string{"chess ", "greatshatranj ", "chatrang ", "shatranj ", "courier ", "capablanca ", "makruk ", "grand ", "crazyhouse ", "xiangqi ", "shogi ", "chess960 ", "vazir ", "crazychess ", "csipgs "}, nil, 15},
		{"variants long", []string{"variants", "-l", "-file", "testdata/minichess.toml"}, 0, []string{"gardner", "start: rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"}, nil, 0},
		{"check ok", []string{"check", "testdata/minichess.toml"}, 0, []string{"testdata/minichess.toml: ok: gardner", "5x5", "7 legal moves"}, nil, 0},
		{"check unknown key", []string{"check", "testdata/bad.toml"}, 1, nil, []string{"testdata/bad.toml:7:1: unknown key \"board.colour\""}, 0},
		{"check bad betza", []string{"check", "testdata/badbetza.toml"}, 1, nil, []string{`betza "Kx"`, "unknown modifier"}, 0},
		{"check missing", []string{"check", "testdata/none.toml"}, 1, nil, []string{"no such file"}, 0},
		// Counted by hand: Black's replies to a3, b3, c3, d3, e3, Na3, Nc3
		// are 7+8+8+8+7+7+8.
		{"file variant", []string{"perft", "-file", "testdata/minichess.toml", "-depth", "2"}, 0, []string{"nodes 53\n"}, nil, 0},
		{"show", []string{"show", "-variant", "chatrang"}, 0, []string{" 8  r n b k q b n r\n", "24 legal moves"}, nil, 0},
		{"show a description", []string{"show", "-variant", "crazy", "-fen", "4k3/8/8/8/3b*4/8/8/(RNP)3K3 w - - 0 1 b - 0"}, 0,
			[]string{" 1  R2 .  .  .  K ", "squares: a1 R N P (bottom to top)", "denial right: black; denials so far: 0\n"}, nil, 0},
		{"flag error", []string{"moves", "-nosuch"}, 2, nil, []string{"flag provided but not defined"}, 0},
		{"search", []string{"search", "-fen", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "-depth", "3"}, 0, []string{"mate 1", "best Rd8# (d1d8)"}, nil, 0},
		{"search stalemated", []string{"search", "-variant", "chatrang", "-fen", "k7/p1K5/P7/8/8/8/8/8 b - - 0 1"}, 0, []string{"no legal move: 0-1 (black is stalemated and wins)"}, nil, 0},
		{"uci", []string{"uci"}, 0, []string{"uciok"}, nil, 0},
		{"xboard", []string{"xboard"}, 0, []string{`feature variants="normal,great,greatshat,chatrang,shatranj,kurierspiel,capablanca,thai,grandchess,zh,chinese-chess,japanese-chess,fischerandom"`, "feature done=1"}, nil, 0},
		{"match", []string{"match", "-variant", "chatrang", "-games", "2", "-p1", "engine:depth=2", "-p2", "random", "-st", "1", "-q"}, 0,
			[]string{"engine:depth=2 vs random, chatrang, 2 games, st=1\n", "2 games: +"}, nil, 0},
		{"match bad player", []string{"match", "-p2", "human"}, 2, nil, []string{`player "human"`}, 0},
		{"match bad tc", []string{"match", "-tc", "fast"}, 2, nil, []string{`-tc "fast"`}, 0},
	}
	runCmdCases(t, tests)
}

// TestBenchSignature checks that a search with one thread, the default,
// visits the same nodes as ever: the bench signature.
func TestBenchSignature(t *testing.T) {
	for _, args := range [][]string{{"bench", "-q"}, {"bench", "-q", "-threads", "1"}} {
		out, errs, st := runCmd(args...)
		if st != 0 || !strings.HasPrefix(out, "nodes 354725\n") {
			t.Errorf("%v: status %d, output %q, errors %q; want nodes 354725", args, st, out, errs)
		}
	}
}

// TestThreadsFlag checks the -threads flag of the commands that search.
func TestThreadsFlag(t *testing.T) {
	cpus := strconv.Itoa(search.CPUs())
	above := strconv.Itoa(search.CPUs() + 1)
	runCmdCases(t, []cmdCase{
		{"search with the CPUs", []string{"search", "-fen", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "-depth", "4", "-threads", cpus}, 0, []string{"mate 1", "best Rd8# (d1d8)"}, nil, 0},
		{"search above the CPUs", []string{"search", "-threads", above}, 2, nil, []string{"-threads " + above + ": want 1 to " + cpus + " (the machine's CPUs)"}, 0},
		{"search no threads", []string{"search", "-threads", "0"}, 2, nil, []string{"-threads 0: want 1 to"}, 0},
		{"bench no threads", []string{"bench", "-threads", "0"}, 2, nil, []string{"-threads 0: want 1 to"}, 0},
		{"play above the CPUs", []string{"play", "-threads", above}, 2, nil, []string{"-threads " + above + ": want 1 to"}, 0},
	})
}
