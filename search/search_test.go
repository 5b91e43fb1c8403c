package search_test

import (
	"context"
	"testing"
	"time"

	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
)

var reg = vtest.Builtins()

func pos(t testing.TB, name, fen string) *rules.Position {
	t.Helper()
	v, err := reg.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	if fen == "" {
		return v.Start()
	}
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindsMate(t *testing.T) {
	tests := []struct {
		variant, fen string
		best         string // SAN of the only good move
		mate         int    // moves to mate
	}{
		{"chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "Rd8#", 1},
		{"chess", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "Qxf7#", 1},
		{"chess", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "Nf6+", 2},
		// Chatrang: taking the last piece wins at once (CH-10).
		{"chatrang", "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1", "Kxe2", 1},
	}
	for _, tt := range tests {
		p := pos(t, tt.variant, tt.fen)
		e := search.New(16)
		res := e.Search(context.Background(), p, search.Limits{Depth: 6}, nil)
		got := notation.SAN(p, res.Best)
		if got != tt.best {
			t.Errorf("%s: best %s, want %s (info %+v)", tt.fen, got, tt.best, res.Info)
		}
		if tt.mate > 0 && res.Info.Mate != tt.mate {
			t.Errorf("%s: mate %d, want %d", tt.fen, res.Info.Mate, tt.mate)
		}
	}
}

func TestStalemateWinsInChatrang(t *testing.T) {
	// Black to move is stalemated: in Chatrang that is a win for Black (CH-10).
	p := pos(t, "chatrang", "k7/p1K5/P7/8/8/8/8/8 b - - 0 1")
	res := search.New(1).Search(context.Background(), p, search.Limits{Depth: 3}, nil)
	if res.Best != rules.NoMove || res.Info.Score != search.Mate {
		t.Errorf("stalemated side: %+v", res)
	}
}

func TestTimeLimit(t *testing.T) {
	p := pos(t, "chess", "")
	e := search.New(16)
	start := time.Now()
	res := e.Search(context.Background(), p, search.Limits{MoveTime: 200 * time.Millisecond}, nil)
	// The bound is loose: it tells a search that stops near its time from
	// one that ignores it, however busy the machine is.
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("a 200 ms search took %v", el)
	}
	if res.Best == rules.NoMove || res.Info.Depth < 3 {
		t.Errorf("result %+v", res.Info)
	}
}

// TestDeterministic: the same search twice visits the same nodes and picks
// the same move (bench relies on this as the search's signature).
func TestDeterministic(t *testing.T) {
	for _, name := range []string{"chess", "greatshatranj", "chatrang"} {
		p := pos(t, name, "")
		a := search.New(8).Search(context.Background(), p, search.Limits{Depth: 7}, nil)
		b := search.New(8).Search(context.Background(), p, search.Limits{Depth: 7}, nil)
		if a.Info.Nodes != b.Info.Nodes || a.Best != b.Best {
			t.Errorf("%s: %d nodes %v, then %d nodes %v", name, a.Info.Nodes, a.Best, b.Info.Nodes, b.Best)
		}
		if p.FEN() != pos(t, name, "").FEN() {
			t.Errorf("%s: the search changed the position", name)
		}
	}
}

func TestMultiPVAndSearchMoves(t *testing.T) {
	p := pos(t, "chess", "")
	var lines []search.Info
	e := search.New(8)
	res := e.Search(context.Background(), p, search.Limits{Depth: 4, MultiPV: 3}, func(in search.Info) {
		if in.Depth == 4 {
			lines = append(lines, in)
		}
	})
	if len(lines) != 3 || lines[0].PV[0] == lines[1].PV[0] || lines[1].PV[0] == lines[2].PV[0] || lines[0].Score < lines[2].Score {
		t.Errorf("MultiPV 3 lines: %+v", lines)
	}
	for i, in := range lines {
		if in.MultiPV != i+1 || i > 0 && in.Score > lines[i-1].Score {
			t.Errorf("line %d (MultiPV %d, score %d) out of order: %+v", i+1, in.MultiPV, in.Score, lines)
		}
	}
	if res.Best != lines[0].PV[0] || res.Info.Score != lines[0].Score {
		t.Error("best move is not the first line")
	}
	a3, _ := notation.ParseMove(p, "a3")
	res = e.Search(context.Background(), p, search.Limits{Depth: 3, SearchMoves: []rules.Move{a3}}, nil)
	if res.Best != a3 {
		t.Errorf("searchmoves a3 gave %v", notation.SAN(p, res.Best))
	}
}

// coinVariant is chess in which every capture succeeds with probability
// 1/4; a failed capture leaves the board alone and passes the turn.
func coinVariant(t *testing.T) *rules.Variant {
	v, _ := reg.Get("chess")
	s := v.Spec()
	s.Name, s.Aliases = "coin", nil
	s.Ext = coin{}
	cv, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return cv
}

// coin is coinVariant's rules: a rules.Randomizer and a rules.AfterMover.
type coin struct{}

// Outcomes gives a capture its two outcomes.
func (coin) Outcomes(p *rules.Position, m rules.Move) []rules.Outcome {
	if p.IsCapture(m) {
		return []rules.Outcome{{Num: 1, Den: 4, Label: "hit"}, {Num: 3, Den: 4, Label: "miss"}}
	}
	return nil
}

// AfterMake passes the turn after a miss.
func (coin) AfterMake(p *rules.Position, m rules.Move, outcome int) {
	if outcome == 1 {
		p.SetTurnState(p.Turn().Other(), 0, 0)
	}
}

// AfterUnmake has nothing to restore.
func (coin) AfterUnmake(*rules.Position, rules.Move, int) {}

// TestChanceNodes: the search values a chance capture by its expectation.
// Taking a hanging queen with probability 1/4 is worth about a quarter of a
// queen, so the engine prefers it to a quiet move, and scores it well
// below a certain capture of the same queen.
func TestChanceNodes(t *testing.T) {
	cv := coinVariant(t)
	fen := "k7/8/8/3q4/8/8/8/K2R4 w - - 0 1"
	p, err := cv.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	res := search.New(8).Search(context.Background(), p, search.Limits{Depth: 3}, nil)
	if got := notation.SAN(p, res.Best); got != "Rxd5" {
		t.Errorf("best %s, want Rxd5", got)
	}
	certain := pos(t, "chess", fen)
	sure := search.New(8).Search(context.Background(), certain, search.Limits{Depth: 3}, nil)
	t.Logf("chance %d, certain %d", res.Info.Score, sure.Info.Score)
	if res.Info.Score >= sure.Info.Score-300 || res.Info.Score <= -400 {
		t.Errorf("chance capture scored %d, certain capture %d", res.Info.Score, sure.Info.Score)
	}
	if p.FEN() != fen {
		t.Error("the search changed the position")
	}
}

// TestCurrMoveAndHashfull: CurrMove reports every root move of an
// iteration, numbered from 1, and the table is partly full after a search
// and empty after Clear.
func TestCurrMoveAndHashfull(t *testing.T) {
	v, err := vtest.Builtins().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	e := search.New(1)
	seen := map[rules.Move]bool{}
	maxNum := 0
	e.Search(context.Background(), p, search.Limits{Depth: 4, CurrMove: func(m rules.Move, n int) {
		seen[m] = true
		maxNum = max(maxNum, n)
	}}, nil)
	if len(seen) != 20 || maxNum != 20 {
		t.Errorf("currmove saw %d moves, numbers up to %d; want 20 and 20", len(seen), maxNum)
	}
	if h := e.Hashfull(); h <= 0 || h > 1000 {
		t.Errorf("hashfull %d after a search", h)
	}
	e.Clear()
	if h := e.Hashfull(); h != 0 {
		t.Errorf("hashfull %d after Clear", h)
	}
}

// TestCountingEndsTheGame: a history rule of the variant (makruk's
// counting) ends the game in the search as in play. With White's count at
// its limit, any move of White's draws, so a rook up is worth nothing.
func TestCountingEndsTheGame(t *testing.T) {
	for _, tt := range []struct {
		fen  string
		draw bool
	}{
		{"8/8/8/4k3/8/8/8/R3K3 w - 32 32 1", true},
		{"8/8/8/4k3/8/8/8/R3K3 w - 32 2 1", false},
	} {
		p := pos(t, "makruk", tt.fen)
		res := search.New(16).Search(context.Background(), p, search.Limits{Depth: 5}, nil)
		if got := res.Info.Score == 0; got != tt.draw {
			t.Errorf("%s: score %d; want a draw: %v", tt.fen, res.Info.Score, tt.draw)
		}
	}
}

// TestDropMateForbidden: where a drop may not checkmate (shogi's pawn), a
// position it would checkmate is a win for the side checkmated, in the
// search as in play, so the engine does not play it for a mate.
func TestDropMateForbidden(t *testing.T) {
	// Black's king on a9, shut in by its own lance and silver, a8 guarded
	// by White's gold: the pawn dropped on a8 would checkmate, and no other
	// move would.
	p := pos(t, "shogi", "kl7/1s7/G8/9/9/9/9/9/4K4[P] w - - 0 1")
	res := search.New(16).Search(context.Background(), p, search.Limits{Depth: 3}, nil)
	if got := notation.Coord(p, res.Best); got == "P@a8" || res.Info.Mate == 1 {
		t.Errorf("best %s, mate %d: the forbidden drop mate was taken for a mate", got, res.Info.Mate)
	}
	p.Make(res.Best)
	if st := p.Status(); st.Over() && st.Result != rules.Win(rules.White) {
		t.Errorf("after %s: %s", notation.Coord(p, res.Best), st.Detail)
	}
}
