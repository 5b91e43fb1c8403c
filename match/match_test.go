package match

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/csipgs"
	"github.com/anychess/anychess/variant/csipgs/ai"
)

func TestParseSpec(t *testing.T) {
	for _, tt := range []struct{ in, out, err string }{
		{"engine", "engine", ""},
		{"engine:depth=3,hash=8", "engine:depth=3,hash=8", ""},
		{"engine:certain=1", "engine:certain=1", ""},
		{"engine:certain=yes", "", "not 0 or 1"},
		{"engine:threads=1,nodes=500", "engine:nodes=500,threads=1", ""},
		{"engine:threads=0", "", "not a positive number"},
		{"engine:belief=0", "engine:belief=0", ""},
		{"engine:belief=yes", "", "belief=\"yes\" is not 0 or 1"},
		{"engine:weights=none,nodes=2000", "engine:nodes=2000,weights=none", ""},
		{"engine:weights=my.weights.toml", "engine:weights=my.weights.toml", ""},
		{"engine:threads=two", "", "not a positive number"},
		{fmt.Sprintf("engine:threads=%d", search.CPUs()+1), "", "CPUs"},
		{"random", "random", ""},
		{"greedy", "greedy", ""},
		{"uci:/usr/games/stockfish:UCI_Elo=1320,UCI_LimitStrength=true", "uci:/usr/games/stockfish:UCI_Elo=1320,UCI_LimitStrength=true", ""},
		{"engine:depth=x", "", "not a positive number"},
		{"engine:speed=3", "", "unknown engine option"},
		{"engine:depth", "", "not key=value"},
		{"random:x=1", "", "takes no options"},
		{"uci", "", "needs a program"},
		{"uci:/usr/bin/anychess uci", "uci:/usr/bin/anychess uci", ""},
		{"uci:/usr/bin/anychess uci:Hash=8,dir=/tmp,stderr=/tmp/e.log", "uci:/usr/bin/anychess uci:Hash=8,dir=/tmp,stderr=/tmp/e.log", ""},
		{`uci:"C:\engines\sf.exe":Hash=64`, `uci:"C:\\engines\\sf.exe":Hash=64`, ""},
		{`uci:"/opt/a:b/sf" --x:Hash=1`, "", "after the closing quote"},
		{`uci:"/opt/a:b/sf --x":Hash=1`, `uci:"/opt/a:b/sf --x":Hash=1`, ""},
		{`uci:'/opt/my engines/sf' uci`, `uci:'/opt/my engines/sf' uci`, ""},
		{`uci:/e:VariantOptions="MPT=2,QuietAfterFail=0",Hash=2`, `uci:/e:Hash=2,VariantOptions="MPT=2,QuietAfterFail=0"`, ""},
		{`uci:/e:Name="say \"hi\""`, `uci:/e:Name="say \"hi\""`, ""},
		{`uci:/e:Name="open`, "", "not closed"},
		{`uci:"/e`, "", "not closed"},
		{`uci:/e 'x`, "", "not closed"},
		{`uci:"":Hash=1`, "", "needs a program"},
		{"uci:/e:Hash=1,=2", "", "not key=value"},
		{"human", "", "want engine, random, greedy"},
	} {
		sp, err := ParseSpec(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || sp.String() != tt.out {
			t.Errorf("%q: %v %q", tt.in, err, sp.String())
			continue
		}
		back, err := ParseSpec(sp.String())
		if err != nil || back.String() != tt.out {
			t.Errorf("%q: read back: %v %q", tt.out, err, back.String())
		}
	}
	sp, _ := ParseSpec(`uci:"/opt/a:b/sf --x 'y z'":dir=/tmp,stderr=e.log,Threads=2`)
	if sp.Path != "/opt/a:b/sf" || !slices.Equal(sp.Args, []string{"--x", "y z"}) || sp.Dir != "/tmp" || sp.Stderr != "e.log" ||
		len(sp.Options) != 1 || sp.Options["Threads"] != "2" {
		t.Errorf("fields %+v", sp)
	}
}

// TestTimeControlTag: the PGN TimeControl tag in the standard's forms.
func TestTimeControlTag(t *testing.T) {
	for _, tt := range []struct {
		tc   TimeControl
		want string
	}{
		{TimeControl{Base: 300 * time.Second, Inc: 2 * time.Second}, "300+2"},
		{TimeControl{Base: 10 * time.Second, Inc: 100 * time.Millisecond}, "10+0.1"},
		{TimeControl{Base: 60 * time.Second}, "60"},
		{TimeControl{MoveTime: 100 * time.Millisecond}, "1/0.1"},
		{TimeControl{MoveTime: 5 * time.Second}, "1/5"},
		{TimeControl{}, "-"},
	} {
		if got := tt.tc.PGN(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.tc, got, tt.want)
		}
	}
}

func TestStats(t *testing.T) {
	s := Stats{Wins: 60, Draws: 20, Losses: 20}
	if s.Score() != 0.7 {
		t.Errorf("score %v", s.Score())
	}
	elo, lo, hi := s.Elo()
	if math.Abs(elo-147.2) > 0.5 || lo >= elo || hi <= elo || lo < 60 || hi > 260 {
		t.Errorf("elo %v [%v, %v]", elo, lo, hi)
	}
	if e, _, _ := (Stats{Wins: 10, Losses: 10}).Elo(); e != 0 {
		t.Errorf("even score elo %v", e)
	}
	// The SPRT favours H1 when the score is far above elo1's.
	sp := &SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	if (Stats{Wins: 300, Draws: 100, Losses: 100}).llr(sp) < 3 || (Stats{Wins: 100, Draws: 100, Losses: 300}).llr(sp) > -3 {
		t.Error("llr signs")
	}
}

// TestLLRFewGames checks that a handful of equal results (no variance in
// the sample) is not taken for overwhelming evidence, while a long run of
// wins still is.
func TestLLRFewGames(t *testing.T) {
	sp := &SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	upper := math.Log((1 - sp.Beta) / sp.Alpha)
	lower := math.Log(sp.Beta / (1 - sp.Alpha))
	tests := []struct {
		s      Stats
		decide bool
	}{
		{Stats{Wins: 1}, false},
		{Stats{Losses: 1}, false},
		{Stats{Draws: 3}, false},
		{Stats{Wins: 3}, false},
		{Stats{Wins: 1, Losses: 1}, false},
		{Stats{Wins: 60}, true},
		{Stats{Losses: 60}, true},
	}
	for _, tt := range tests {
		llr := tt.s.llr(sp)
		if decided := llr >= upper || llr <= lower; decided != tt.decide {
			t.Errorf("%+v: llr %.2f, decided %v, want %v", tt.s, llr, decided, tt.decide)
		}
	}
}

func TestMatch(t *testing.T) {
	reg := vtest.Builtins()
	for _, name := range []string{"chess", "greatshatranj", "chatrang"} {
		v, _ := reg.Get(name)
		var out bytes.Buffer
		e, _ := ParseSpec("engine:depth=2")
		r, _ := ParseSpec("random")
		var progress int
		st, err := Run(context.Background(), Config{
			Variant: v, Games: 4, Players: [2]Spec{e, r}, TC: TimeControl{MoveTime: time.Second},
			Concurrency: 2, Seed: 7, PGN: &out, Progress: func(Stats) { progress++ }, RandomPlies: 6,
		})
		if err != nil {
			t.Fatal(err)
		}
		if st.Games() != 4 || progress != 4 {
			t.Errorf("%s: %d games, %d progress calls", name, st.Games(), progress)
		}
		if st.Losses > 0 {
			t.Errorf("%s: a depth-2 engine lost to a random mover: %v", name, st)
		}
		games, err := pgn.Parse(out.String())
		if err != nil || len(games) != 4 {
			t.Fatalf("%s: PGN: %v, %d games", name, err, len(games))
		}
		for _, g := range games {
			if w, _ := g.Tag("White"); w != "engine:depth=2" && w != "random" {
				t.Errorf("White tag %q", w)
			}
			if v, _ := g.Tag("Variant"); name != "chess" && v != name {
				t.Errorf("Variant tag %q", v)
			}
			if _, ok := g.Tag("FEN"); !ok {
				t.Error("no FEN tag for the opening")
			}
		}
	}
}

func TestMatchErrors(t *testing.T) {
	v, _ := vtest.Builtins().Get("chess")
	e, _ := ParseSpec("engine")
	bad := Spec{Kind: "uci", Path: "/nonexistent/engine"}
	if _, err := Run(context.Background(), Config{Variant: v, Games: 2, Players: [2]Spec{e, bad}, TC: TimeControl{MoveTime: time.Millisecond}}); err == nil {
		t.Error("a missing engine did not fail the match")
	}
	if _, err := Run(context.Background(), Config{Variant: v, Games: 2, Players: [2]Spec{e, e}}); err == nil {
		t.Error("no time control accepted")
	}
}

// TestEngineOnEmptyClock: with no time left the engine still moves at once
// (a zero time must not mean "no limit").
func TestEngineOnEmptyClock(t *testing.T) {
	v, _ := vtest.Builtins().Get("chess")
	sp, _ := ParseSpec("engine")
	pl, err := sp.New()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	m, err := pl.Move(context.Background(), v.Start(), v.Start(), nil, Clock{Left: 0, OppLeft: time.Second})
	if err != nil || m == 0 {
		t.Fatalf("%v %v", m, err)
	}
	if el := time.Since(start); el > 500*time.Millisecond {
		t.Errorf("a move on an empty clock took %v", el)
	}
}

// TestTimeOdds: timefactor scales the player's real clock, so a player
// with double time may spend twice as long without losing on time.
func TestTimeOdds(t *testing.T) {
	sp, _ := ParseSpec("engine:timefactor=2")
	if sp.TimeFactor() != 2 {
		t.Errorf("TimeFactor %v", sp.TimeFactor())
	}
	for _, s := range []string{"engine", "random"} {
		if sp, _ := ParseSpec(s); sp.TimeFactor() != 1 {
			t.Errorf("%s: TimeFactor %v", s, sp.TimeFactor())
		}
	}
	v, _ := vtest.Builtins().Get("chess")
	slow, _ := ParseSpec("engine:timefactor=2")
	e, _ := ParseSpec("engine")
	start := time.Now()
	st, err := Run(context.Background(), Config{Variant: v, Games: 2, Players: [2]Spec{slow, e},
		TC: TimeControl{MoveTime: 20 * time.Millisecond}, MaxPlies: 20})
	if err != nil || st.Games() != 2 || len(st.Errors) > 0 {
		t.Fatalf("%v %v", st, err)
	}
	// 20 plies per game, half by each side: 10*(40+20) ms per game at least.
	if el := time.Since(start); el < 1100*time.Millisecond {
		t.Errorf("two 20-ply games with 40 and 20 ms per move took only %v", el)
	}
}

// TestEngineThreads checks that threads=N gives the engine player N
// threads, and that it has one without it.
func TestEngineThreads(t *testing.T) {
	tests := []struct {
		spec string
		want int
	}{
		{"engine", 1},
		{"engine:threads=1", 1},
		{fmt.Sprintf("engine:threads=%d", search.CPUs()), search.CPUs()},
	}
	for _, tc := range tests {
		sp, err := ParseSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		pl, err := sp.New()
		if err != nil {
			t.Fatal(err)
		}
		if got := pl.(*enginePlayer).e.Threads(); got != tc.want {
			t.Errorf("%s: %d threads, want %d", tc.spec, got, tc.want)
		}
	}
}

// TestEngineBelief checks that belief=0 and belief=1 set the moderated
// csipgs engine's belief, and that without it the engine keeps its
// default.
func TestEngineBelief(t *testing.T) {
	cv, err := csipgs.New(csipgs.Options{Moderated: true})
	v := cv.WithFace(ai.Face{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		spec string
		want bool
	}{
		{"engine", ai.DefaultBelief},
		{"engine:belief=0", false},
		{"engine:belief=1", true},
	}
	for _, tc := range tests {
		pl := startPlayer(t, tc.spec, v)
		if got := pl.(*enginePlayer).pl.(*ai.Engine).Belief; got != tc.want {
			t.Errorf("%s: belief %v, want %v", tc.spec, got, tc.want)
		}
	}
}

// startPlayer returns the player of spec with a game of v begun.
func startPlayer(t *testing.T, spec string, v *rules.Variant) Player {
	t.Helper()
	sp, err := ParseSpec(spec)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	pl, err := sp.New()
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	if err := pl.NewGame(context.Background(), v); err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	return pl
}
