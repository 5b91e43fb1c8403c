package face_test

// Lantern chess is a variant defined here, in test code alone, to show
// that a variant with hooks, its own state, its own move kind and hidden
// information plays through the server, a match and UCI with nothing
// changed outside its own code and its registration in a registry: chess
// in which each side sees only the squares near its pieces, and may, in
// place of a move, light a lantern (the move REST, at most three times a
// game), each lantern widening what it sees by a square. The lanterns
// are the variant's state; its face describes them and the lighting of
// one.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/match"
	"github.com/anychess/anychess/protocol/uci"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/server"
	"github.com/anychess/anychess/server/loadtest"
	"github.com/anychess/anychess/server/store"
	"github.com/anychess/anychess/variant"
)

// maxLanterns is how many lanterns a side may light in a game.
const maxLanterns = 3

// lanterns is the variant's state: the lanterns each side has lit.
type lanterns struct{ lit [2]uint8 }

func (l *lanterns) Clone() rules.State { c := *l; return &c }
func (l *lanterns) Hash() uint64 {
	return uint64(l.lit[0])*0x9E3779B97F4A7C15 ^ uint64(l.lit[1])*0xC2B2AE3D27D4EB4F
}
func (l *lanterns) String() string { return fmt.Sprintf("%d/%d", l.lit[0], l.lit[1]) }

// litOf returns the lanterns of p; a position with no state has none lit.
func litOf(p *rules.Position) [2]uint8 {
	if l, ok := p.State().(*lanterns); ok {
		return l.lit
	}
	return [2]uint8{}
}

// royalSquare returns the square of c's royal piece, or false.
func royalSquare(p *rules.Position, c rules.Color) (geom.Square, bool) {
	for _, sq := range p.Pieces(c) {
		if p.Variant().Royal(p.At(sq).Type()) {
			return sq, true
		}
	}
	return 0, false
}

// restMove is the move REST of the side to move in p: a Special move on
// its king's square.
func restMove(p *rules.Position) (rules.Move, bool) {
	sq, ok := royalSquare(p, p.Turn())
	if !ok {
		return rules.NoMove, false
	}
	return rules.NewMove(sq, sq, rules.Special).WithPayload(1), true
}

// lanternFace is the variant's face: its description.
type lanternFace struct{}

func (lanternFace) Describe(p *rules.Position) face.Description {
	lit := litOf(p)
	return face.Description{Counters: []face.Counter{
		{Side: "white", Name: "lanterns", Value: fmt.Sprint(lit[0])},
		{Side: "black", Name: "lanterns", Value: fmt.Sprint(lit[1])},
	}}
}

func (lanternFace) DescribePly(p *rules.Position) []string {
	m, _, ok := p.LastMove()
	if !ok || m.Kind() != rules.Special {
		return nil
	}
	us := p.Turn().Other()
	return []string{fmt.Sprintf("%s lights lantern %d", us, litOf(p)[us])}
}

// lanternRules are Lantern chess's own rules (rules.Spec.Ext): REST
// generated, made and written, and each side's view.
type lanternRules struct{}

func (lanternRules) Generate(p *rules.Position, moves []rules.Move) []rules.Move {
	if litOf(p)[p.Turn()] < maxLanterns {
		if m, ok := restMove(p); ok {
			moves = append(moves, m)
		}
	}
	return moves
}

func (lanternRules) MakeSpecial(p *rules.Position, m rules.Move, _ int) {
	l, ok := p.State().(*lanterns)
	if !ok {
		l = &lanterns{}
		p.SetState(l)
	}
	l.lit[p.At(m.From()).Color()]++ // the king's side
}

func (lanternRules) UnmakeSpecial(p *rules.Position, m rules.Move, _ int) {
	p.State().(*lanterns).lit[p.At(m.From()).Color()]--
}

func (lanternRules) EncodeMove(p *rules.Position, m rules.Move) (string, bool) {
	return "REST", m.Kind() == rules.Special
}

func (lanternRules) DecodeMove(p *rules.Position, text string) (rules.Move, bool) {
	if text != "REST" {
		return rules.NoMove, false
	}
	return restMove(p)
}

func (lanternRules) ExplainMove(*rules.Position, string) error { return nil }

func (lanternRules) View(p *rules.Position, c rules.Color) rules.View {
	view := rules.View{Viewer: c, Position: p.Clone()}
	r := 1 + int(litOf(p)[c])
	b := p.Variant().Board()
	for _, sq := range p.Pieces(c) {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				f, rk := sq.File()+dx, sq.Rank()+dy
				if f >= 0 && rk >= 0 && f < b.Files && rk < b.Ranks {
					view.Visible.Add(geom.Sq(f, rk))
				}
			}
		}
	}
	for _, sq := range b.Squares() {
		if !view.Visible.Has(sq) && view.Position.At(sq).IsPiece() {
			view.Position.Remove(sq)
		}
	}
	return view
}

// lanternChess compiles the variant.
func lanternChess(t *testing.T) *rules.Variant {
	t.Helper()
	chess, err := vtest.Builtins().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	s := chess.Spec()
	s.Name, s.Title, s.Aliases, s.Weights = "lanterns", "Lantern chess", nil, nil
	s.Ext = lanternRules{}
	v, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return v.WithFace(lanternFace{})
}

// registry returns the catalog with Lantern chess registered.
func registry(t *testing.T) *variant.Registry {
	t.Helper()
	reg := catalog.MustDefault()
	if err := reg.Register(lanternChess(t), nil); err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestLanternsRules checks the variant itself: REST lights a lantern and
// is undone exactly, and a side's view widens with its lanterns.
func TestLanternsRules(t *testing.T) {
	v := lanternChess(t)
	p := v.Start()
	h0 := p.Hash()
	m, ok := restMove(p)
	if !ok || !p.Playable(m) {
		t.Fatalf("REST is not legal at the start")
	}
	seen := func(q *rules.Position) int { v := q.View(rules.White); return len(v.Visible.Squares()) }
	before := seen(p)
	p.Make(m)
	if got := litOf(p); got != [2]uint8{1, 0} {
		t.Errorf("after REST: lanterns %v, want [1 0]", got)
	}
	if after := seen(p); after <= before {
		t.Errorf("white sees %d squares after lighting a lantern, %d before", after, before)
	}
	p.Unmake()
	if p.Hash() != h0 || litOf(p) != [2]uint8{} {
		t.Errorf("unmake of REST: hash %x (want %x), lanterns %v", p.Hash(), h0, litOf(p))
	}
	if !face.Hidden(v) {
		t.Error("the variant is not hidden")
	}
}

// TestLanternsServer plays Lantern chess against the engine through the
// server: the seat is offered REST, its state frame describes its view
// with the lanterns, and the engine answers each move from its view, its
// moves judged by the moderator.
func TestLanternsServer(t *testing.T) {
	st, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(server.Config{Store: st, Registry: registry(t), EngineWorkers: 1, EngineHashMB: 1, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	defer hs.CloseClientConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	g, err := loadtest.CreateGame(ctx, hs.URL, map[string]any{"variant": "lanterns", "opponent": "engine", "level": 1, "color": "white"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := loadtest.Join(ctx, hs.URL, g["id"], g["token"], 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	// myState reads until a state frame in which white is to move.
	myState := func() (*loadtest.Frame, *face.Description) {
		for {
			f, err := c.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if f.T == "error" {
				t.Fatalf("error frame: %s %s", f.Code, f.Message)
			}
			if f.T == "state" && f.Turn == "white" && len(f.Legal) > 0 {
				var sf struct {
					Describe *face.Description `json:"describe"`
				}
				if err := json.Unmarshal(f.Raw, &sf); err != nil {
					t.Fatal(err)
				}
				return f, sf.Describe
			}
		}
	}
	f, _ := myState()
	if !strings.Contains(strings.Join(f.Legal, " "), "REST") {
		t.Fatalf("legal %v lacks REST", f.Legal)
	}
	if !strings.Contains(f.Board, "K") || strings.Contains(f.Board, "k") {
		t.Errorf("white's view %q shows the black king, or not its own", f.Board)
	}
	for i, move := range []string{"REST", "e2e4", "REST", "d2d4"} {
		if err := c.Send(ctx, map[string]any{"t": "move", "move": move, "id": i + 1}); err != nil {
			t.Fatal(err)
		}
		f, d := myState() // after the engine's answer
		if f.Status.Result != "*" {
			break
		}
		want := fmt.Sprint(strings.Count(strings.Join([]string{"REST", "e2e4", "REST", "d2d4"}[:i+1], " "), "REST"))
		if d == nil || !containsCounter(d.Counters, face.Counter{Side: "white", Name: "lanterns", Value: want}) {
			t.Errorf("after %s: description %+v, want white's lanterns %s", move, d, want)
		}
	}
}

func containsCounter(cs []face.Counter, c face.Counter) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// TestLanternsMatch plays Lantern chess games between the engine and the
// random and greedy players: every move of a player is chosen from its
// view and judged by the moderator, and no player fails.
func TestLanternsMatch(t *testing.T) {
	reg := registry(t)
	v, err := reg.Get("lanterns")
	if err != nil {
		t.Fatal(err)
	}
	var pgn bytes.Buffer
	for _, opp := range []string{"random", "greedy"} {
		eng, err := match.ParseSpec("engine:depth=1")
		if err != nil {
			t.Fatal(err)
		}
		other, err := match.ParseSpec(opp)
		if err != nil {
			t.Fatal(err)
		}
		st, err := match.Run(context.Background(), match.Config{Variant: v, Games: 2, Players: [2]match.Spec{eng, other},
			MaxPlies: 40, Seed: 7, Concurrency: 1, PGN: &pgn, TC: match.TimeControl{MoveTime: time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Errors) > 0 || st.Wins+st.Draws+st.Losses != 2 {
			t.Errorf("engine against %s: %+v", opp, st)
		}
	}
	if !strings.Contains(pgn.String(), `[Variant "lanterns"]`) {
		t.Errorf("the records do not name the variant:\n%.500s", pgn.String())
	}
}

// TestLanternsUCI drives the engine through UCI in Lantern chess: the
// variant is chosen by UCI_Variant, a position with REST is set up, and
// the engine answers with a move.
func TestLanternsUCI(t *testing.T) {
	in := strings.NewReader("uci\nsetoption name UCI_Variant value lanterns\nisready\nposition startpos moves REST e7e5\ngo depth 2\n")
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- uci.Run(context.Background(), in, pw, registry(t), search.New(1))
		pw.Close()
	}()
	out, err := io.ReadAll(pr)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	text := string(out)
	if !strings.Contains(text, "bestmove ") || strings.Contains(text, "bestmove (none)") {
		t.Errorf("no best move:\n%s", text)
	}
	if !strings.Contains(text, "lanterns") {
		t.Errorf("UCI_Variant does not offer the variant:\n%s", text)
	}
}
