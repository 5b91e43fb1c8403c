package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/anychess/anychess/server/loadtest"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// testRegistry is the catalog with more variants.
type testRegistry struct {
	Registry
	extra []*rules.Variant
}

func (r testRegistry) Get(name string) (*rules.Variant, error) {
	for _, v := range r.extra {
		if v.Name() == name {
			return v, nil
		}
	}
	return r.Registry.Get(name)
}

func (r testRegistry) Variants() []*rules.Variant {
	return slices.Concat(r.Registry.Variants(), r.extra)
}

// newTestRegistry returns the catalog with the variants extra.
func newTestRegistry(extra ...*rules.Variant) testRegistry {
	return testRegistry{Registry: catalog.MustDefault(), extra: extra}
}

// chessLike compiles a variant of chess named name, changed by change.
func chessLike(t *testing.T, name string, change func(s *rules.Spec)) *rules.Variant {
	t.Helper()
	chess, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	s := chess.Spec()
	s.Name, s.Title, s.Aliases = name, name, nil
	s.Pieces = slices.Clone(s.Pieces) // chess's own stay as they are
	change(&s)
	v, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// newFogRegistry returns the catalog with fogchess: chess in which each
// side sees only the squares of its pieces and their neighbours.
func newFogRegistry(t *testing.T) testRegistry {
	return newTestRegistry(chessLike(t, "fogchess", func(s *rules.Spec) {
		s.Title = "Fog chess"
		s.Ext = viewFunc(func(p *rules.Position, c rules.Color) rules.View {
			view := rules.View{Viewer: c, Position: p.Clone()}
			for _, sq := range p.Pieces(c) {
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						n := geom.Square(int(sq) + geom.Offset(dx, dy))
						if p.Variant().Board().Contains(n) {
							view.Visible.Add(n)
						}
					}
				}
			}
			for _, sq := range p.Variant().Board().Squares() {
				if !view.Visible.Has(sq) && view.Position.At(sq).IsPiece() {
					view.Position.Remove(sq)
				}
			}
			return view
		})
	}))
}

// viewFunc is a rules.Viewer.
type viewFunc func(p *rules.Position, c rules.Color) rules.View

func (f viewFunc) View(p *rules.Position, c rules.Color) rules.View { return f(p, c) }

// TestHiddenViews plays a variant with per-player views and reads what
// each seat and a spectator receive: a spectator that asks for a seat's
// view gets none while the game is played.
func TestHiddenViews(t *testing.T) {
	reg := newFogRegistry(t)
	ts := newTestServer(t, "", func(c *Config) { c.Registry = reg })
	id, w, b, _ := humanGame(t, ts, map[string]any{"variant": "fogchess"})
	spec := join(t, ts, id, "", 0)
	// A spectator that asks for White's view.
	wc, err := loadtest.Watch(ctxT(t), ts.URL, id, "white")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wc.CloseNow() })
	specW := &seatClient{t: t, c: wc, seat: "spectator of white"}
	for _, tc := range []struct {
		c    *seatClient
		want string
	}{
		{w, "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR"},
		{b, "rnbqkbnr/pppppppp/8/8/8/8/8/8"},
		{spec, ""},
		{specW, ""},
	} {
		if st := tc.c.stateAt(0); st.Board != tc.want {
			t.Errorf("%s sees %q, want %q", tc.c.seat, st.Board, tc.want)
		}
	}
	if st := specW.stateAt(0); len(st.Legal) != 0 {
		t.Errorf("a spectator asking for White's view gets White's moves: %v", st.Legal)
	}
	w.mustMove("e2e4")
	for _, c := range []*seatClient{w, b, spec, specW} {
		c.stateAt(1)
		_, es := c.events()
		e := es[len(es)-1]
		if own := c == w; own != (e.Move == "e2e4" && e.SAN == "e4") {
			t.Errorf("%s got the ply as %+v", c.seat, e)
		}
		if e.FEN != "" || e.Board != "" { // the true board: each gets its view in the state
			t.Errorf("%s got the position after the ply: %s %s", c.seat, e.FEN, e.Board)
		}
	}
	if f := specW.do(map[string]any{"t": "move", "move": "e7e5"}); f.Code != "not_your_seat" {
		t.Errorf("a spectator's move: %s %s", f.T, f.Code)
	}
	if b.stateAt(1).FEN == "" || strings.Contains(b.stateAt(1).Board, "P") {
		t.Errorf("black sees white's pawns: %s", b.stateAt(1).Board)
	}
	resp, err := http.Get(ts.URL + "/api/games/" + id + "/pgn")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("PGN of a live hidden game: %d", resp.StatusCode)
	}
	// Once the game ends, everyone sees everything.
	b.do(map[string]any{"t": "resign"})
	for _, c := range []*seatClient{w, b, spec} {
		st := c.final()
		if !strings.Contains(st.Board, "P") || !strings.Contains(st.Board, "p") {
			t.Errorf("%s after the end sees %q", c.seat, st.Board)
		}
	}
	later := join(t, ts, id, "", 0)
	if _, es := later.events(); es[0].Move != "e2e4" {
		t.Errorf("after the end a spectator gets %+v", es[0])
	}
}

// TestHiddenSecurityFrames reads every frame and every HTTP answer each
// client of a live moderated csipgs game gets (HideEconomy, terrain): no
// one but a seat receives its view, its economy or its last move, and the
// terrain is published only once the game is over.
func TestHiddenSecurityFrames(t *testing.T) {
	ts := newTestServer(t, "", nil)
	const terrain = "c4,f5"
	id, w, b, _ := humanGame(t, ts, map[string]any{"variant": "csipgs",
		"options": map[string]string{"Moderated": "1", "HideEconomy": "1", "Terrain": terrain}})
	spec := join(t, ts, id, "", 0)
	wc, err := loadtest.Watch(ctxT(t), ts.URL, id, "white")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wc.CloseNow() })
	specW := &seatClient{t: t, c: wc, seat: "spectator asking for white's view"}
	specW.until(func(f *loadtest.Frame) bool { return f.T == "state" })
	api := func(path string) string {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(body)
	}
	var answers []string
	v := int64(0)
	for _, mv := range []struct {
		c    *seatClient
		text string
	}{{w, "e1e2"}, {w, "&-"}, {b, "e8e7"}, {b, "&-"}, {w, "e2e3"}} {
		v = mv.c.mustMove(mv.text)
		for _, c := range []*seatClient{w, b, spec, specW} {
			c.stateAt(v)
		}
		answers = append(answers, api("/api/games/"+id), api("/api/games?state=live"), api("/api/games"))
	}
	for i, a := range answers {
		if strings.Contains(a, terrain) {
			t.Errorf("answer %d of the HTTP API shows the terrain: %s", i, a)
		}
	}
	for _, c := range []*seatClient{w, b, spec, specW} {
		for _, f := range c.frames {
			if strings.Contains(string(f.Raw), terrain) {
				t.Errorf("%s received the terrain: %s", c.seat, f.Raw)
			}
			if f.T != "state" {
				continue
			}
			var sf stateFrame
			if err := json.Unmarshal(f.Raw, &sf); err != nil {
				t.Fatal(err)
			}
			if sf.Last != nil {
				t.Errorf("%s received the last move's squares %v: %s", c.seat, sf.Last, f.Raw)
			}
			for _, side := range []string{"white", "black"} {
				_, money := sf.Money[side]
				_, pocket := sf.Pocket[side]
				if own := side == c.seat; money != own || pocket != own {
					t.Errorf("%s: %s's treasury shown %v, reserve shown %v: %s", c.seat, side, money, pocket, f.Raw)
				}
			}
			if c == spec || c == specW {
				if sf.FEN != "" || sf.Board != "" || len(sf.Visible) != 0 || len(sf.Legal) != 0 {
					t.Errorf("%s received a view: %s", c.seat, f.Raw)
				}
			}
		}
	}
	var ws stateFrame
	if err := json.Unmarshal(w.stateAt(v).Raw, &ws); err != nil || ws.Money["white"] != 2 {
		t.Errorf("white's treasury as white sees it: %v (%v)", ws.Money, err)
	}
	// Once the game is over, everything is public.
	b.do(map[string]any{"t": "resign"})
	for _, c := range []*seatClient{w, b, spec} {
		c.final()
	}
	if a := api("/api/games/" + id); !strings.Contains(a, terrain) {
		t.Errorf("the finished game's summary lacks its terrain: %s", a)
	}
	if st := spec.final(); !strings.Contains(st.FEN, "*") || !strings.Contains(string(st.Raw), `"white":`) {
		t.Errorf("a spectator after the end: %s", st.Raw)
	}
}

// TestModeratorRefuses: in a game with hidden information a player is
// offered the moves of its view, and a move legal there but not on the
// true board is refused without a word about the true board; the game is
// unchanged and the player moves again.
func TestModeratorRefuses(t *testing.T) {
	reg := newFogRegistry(t)
	ts := newTestServer(t, "", func(c *Config) { c.Registry = reg })
	// A black pawn White cannot see stands on a4, in the rook's way.
	_, w, _, _ := humanGame(t, ts, map[string]any{"variant": "fogchess", "fen": "4k3/8/8/8/p7/8/8/R3K3 w - - 0 1"})
	st := w.stateAt(0)
	if !slices.Contains(st.Legal, "a1a8") { // the true board has no a1a8: a4 blocks it
		t.Fatalf("white's moves are not its view's: %v", st.Legal)
	}
	f := w.move("a1a8")
	if f.T != "error" || f.Code != "refused" || strings.Contains(f.Message, "/") || strings.Contains(f.Message, "a4") {
		t.Fatalf("a1a8: %s %s %q", f.T, f.Code, f.Message)
	}
	if f := w.move("h1h8"); f.Code != "illegal" || strings.Contains(f.Message, "/") {
		t.Errorf("a move outside the view: %s %q", f.Code, f.Message)
	}
	w.mustMove("a1a3")
}

// TestModeratorUnseenCapture: in a moderated csipgs game a move onto a
// square the mover's view shows empty, where an enemy piece stands out of
// sight, is the capture it is on the board.
func TestModeratorUnseenCapture(t *testing.T) {
	ts := newTestServer(t, "", nil)
	_, w, b, _ := humanGame(t, ts, map[string]any{"variant": "csipgs",
		"options": map[string]string{"Moderated": "1", "Visibility": "Radius(1)"},
		"fen":     "4k3/8/8/8/n7/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q}"})
	if st := w.stateAt(0); strings.Contains(st.Board, "n") {
		t.Fatalf("white sees the knight: %s", st.Board)
	}
	v := w.mustMove("a1a4")
	if st := w.stateAt(v); st.Board != "8/8/8/8/R7/8/8/4K3" {
		t.Errorf("white's view after a1a4: %s", st.Board)
	}
	if st := b.stateAt(v); strings.Contains(st.Board, "n") {
		t.Errorf("black's knight survived a1a4: %s", st.Board)
	}
}

// TestModeratedEngine: in a moderated csipgs game the engine plays its
// whole turn (action and design) from its view, and the game goes on;
// everything its opponent receives while the game is played is a view.
func TestModeratedEngine(t *testing.T) {
	ts := newTestServer(t, "", nil)
	g := create(t, ts, map[string]any{"variant": "csipgs", "options": map[string]string{"Moderated": "1"}, "opponent": "engine", "level": 1})
	w := join(t, ts, g["id"], g["token"], 0)
	// White plays until the game is past version 12: a turn is an action
	// and a design decision, and White's next turn waits for the engine's
	// whole answer.
	var st *loadtest.Frame
	for v := int64(0); v < 12; {
		st = w.waitState(func(f *loadtest.Frame) bool {
			return f.V >= v && (f.Turn == "white" && len(f.Legal) > 0 || f.Status.Result != "*")
		})
		if st.Status.Result != "*" {
			t.Fatalf("the game ended at version %d: %+v", st.V, st.Status)
		}
		v = w.mustMove(st.Legal[0])
	}
	_, es := w.events()
	var plies, turns [2]int
	for _, e := range es {
		if s := seatIndex(e.Seat); e.Kind == "ply" && s >= 0 {
			plies[s]++
			if e.TurnOver {
				turns[s]++
			}
		}
	}
	if plies[1] < 4 || turns[1] < 2 || turns[0] < 2 {
		t.Errorf("white made %d plies in %d turns, the engine %d plies in %d turns; want two whole turns each", plies[0], turns[0], plies[1], turns[1])
	}
	for _, f := range w.frames {
		switch f.T {
		case "welcome":
			var sum Summary
			if err := json.Unmarshal(f.Game, &sum); err != nil || sum.StartFEN != "" || sum.StartBrd != "" {
				t.Errorf("the welcome shows the start: %s (%v)", f.Game, err)
			}
		case "event":
			e, err := f.Event()
			if err != nil {
				t.Fatal(err)
			}
			if e.Kind == "ply" && (e.FEN != "" || e.Board != "" || e.Seat == "black" && (e.Move != "" || e.SAN != "")) {
				t.Errorf("v%d: white received the ply %s", f.V, f.E)
			}
		case "state":
			var sf stateFrame
			if err := json.Unmarshal(f.Raw, &sf); err != nil {
				t.Fatal(err)
			}
			if sf.Visible == nil {
				t.Errorf("v%d: a state without a view: %s", f.V, f.Raw)
			}
			for sq, pc := range boardSquares(sf.Board) {
				if !slices.Contains(sf.Visible, sq) {
					t.Errorf("v%d: white sees %c on %s, outside its view %v", f.V, pc, sq, sf.Visible)
				}
			}
		}
	}
}

// boardSquares returns the pieces of a FEN's piece placement by square
// ("e1": 'K').
func boardSquares(board string) map[string]byte {
	out := map[string]byte{}
	rows := strings.Split(board, "/")
	for i, row := range rows {
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '0' && c <= '9':
				n := int(c - '0')
				for j+1 < len(row) && row[j+1] >= '0' && row[j+1] <= '9' {
					j++
					n = n*10 + int(row[j]-'0')
				}
				file += n
			case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
				out[fmt.Sprintf("%c%d", 'a'+file, len(rows)-i)] = c
				file++
			default: // terrain
				file++
			}
		}
	}
	return out
}

// TestHiddenSeatSquares: in every state frame a seat of a live hidden game
// receives, its board holds pieces and terrain only on the squares its
// view lists as visible, besides its own pieces; so neither an unseen enemy
// piece nor unseen terrain reaches it, and terrain it does see does.
func TestHiddenSeatSquares(t *testing.T) {
	ts := newTestServer(t, "", nil)
	_, w, b, _ := humanGame(t, ts, map[string]any{"variant": "csipgs",
		"options": map[string]string{"Moderated": "1", "Terrain": "e3,c4,f5,d6"}})
	v := int64(0)
	for _, mv := range []struct {
		c    *seatClient
		text string
	}{{w, "e1e2"}, {w, "&-"}, {b, "e8e7"}, {b, "&-"}, {w, "e2d2"}, {w, "&-"}, {b, "e7e6"}, {b, "&-"}} {
		v = mv.c.mustMove(mv.text)
		w.stateAt(v)
		b.stateAt(v)
	}
	sawTerrain := 0
	for _, c := range []*seatClient{w, b} {
		own := "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		if c.seat == "black" {
			own = strings.ToLower(own)
		}
		for _, f := range c.frames {
			if f.T != "state" {
				continue
			}
			var sf stateFrame
			if err := json.Unmarshal(f.Raw, &sf); err != nil {
				t.Fatal(err)
			}
			visible := map[string]bool{}
			for _, sq := range sf.Visible {
				visible[sq] = true
			}
			for sq, cell := range boardCells(t, sf.Board) {
				if cell == '*' && visible[sq] {
					sawTerrain++
				}
				if !visible[sq] && !strings.ContainsRune(own, cell) {
					t.Errorf("%s's board shows %c on %s, which its view does not list: %s", c.seat, cell, sq, f.Raw)
				}
			}
		}
	}
	if sawTerrain == 0 {
		t.Error("no seat ever saw terrain it stands next to")
	}
}

// boardCells reads an 8x8 FEN board (digits for runs of empty squares,
// "*" for terrain) into square -> cell.
func boardCells(t *testing.T, board string) map[string]rune {
	t.Helper()
	out := map[string]rune{}
	ranks := strings.Split(board, "/")
	if len(ranks) != 8 {
		t.Fatalf("board %q: %d ranks", board, len(ranks))
	}
	for i, rank := range ranks {
		file := 0
		for _, r := range rank {
			if r >= '1' && r <= '8' {
				file += int(r - '0')
				continue
			}
			out[string(rune('a'+file))+strconv.Itoa(8-i)] = r
			file++
		}
		if file != 8 {
			t.Fatalf("board %q: rank %d has %d files", board, 8-i, file)
		}
	}
	return out
}
