package match

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant/csipgs"
	"github.com/anychess/anychess/variant/csipgs/ai"
)

const csTable = "{P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q}"

func csipgsVariant(t *testing.T, o csipgs.Options) *rules.Variant {
	t.Helper()
	v, err := csipgs.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return v.WithFace(ai.Face{}) // as the catalog assembles it
}

// TestGreedyCsipgs checks the reference player of csipgs Chess: it buys
// the most expensive piece it can afford, else plays the best one-ply
// move, and never changes a design.
func TestGreedyCsipgs(t *testing.T) {
	v := csipgsVariant(t, csipgs.DefaultOptions())
	tests := []struct {
		name, fen string
		want      []string // acceptable moves, in coordinates
	}{
		{"rook at 5", "4k3/8/8/8/8/8/8/4K3 w 4/0 -/- PRNBKQ/PRNBKQ 0 10 " + csTable, []string{"+R"}},
		{"queen at 9", "4k3/8/8/8/8/8/8/4K3 w 8/0 -/- PRNBKQ/PRNBKQ 0 10 " + csTable, []string{"+Q"}},
		{"pawn at 2", "4k3/8/8/8/8/8/8/4K3 w 1/0 -/- PRNBKQ/PRNBKQ 0 10 " + csTable, []string{"+P"}},
		{"knight or bishop at 3", "4k3/8/8/8/8/8/8/4K3 w 3/0 -/- PRNBKQ/PRNBKQ 0 10 " + csTable, []string{"+N", "+B"}},
		{"nothing to buy: take", "4k3/8/8/8/3r4/8/8/3RK3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + csTable, []string{"d1d4"}},
		{"design phase", "4k3/8/8/8/8/8/4K3/8 w& 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + csTable, []string{"&-"}},
	}
	for _, tc := range tests {
		p, err := v.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		pl, _ := Spec{Kind: "greedy", Seed: 3}.New()
		g := pl.(*greedyPlayer)
		for range 4 { // ties are broken at random: try a few
			m, err := g.Move(context.Background(), p, p.Clone(), nil, Clock{})
			if err != nil {
				t.Fatal(err)
			}
			if got := notation.Coord(p, m); !slices.Contains(tc.want, got) {
				t.Errorf("%s: %s, want one of %v", tc.name, got, tc.want)
			}
		}
	}
}

// viewSpy is a player that checks what it is shown: with hidden
// information, never the history, and never an enemy piece it cannot see.
type viewSpy struct {
	Player
	t     *testing.T
	calls int
}

func (s *viewSpy) Move(ctx context.Context, start, p *rules.Position, history []game.Ply, clk Clock) (rules.Move, error) {
	s.calls++
	if len(history) != 0 {
		s.t.Errorf("a player of a moderated game was shown %d plies of history", len(history))
	}
	if start.FEN() != p.FEN() {
		s.t.Errorf("start %s is not the view %s", start.FEN(), p.FEN())
	}
	us := p.Turn()
	vis := map[string]bool{}
	for _, sq := range csipgs.Visible(p, us) {
		vis[sq] = true
	}
	for _, sq := range p.Pieces(us.Other()) {
		if !vis[sq.String()] {
			s.t.Errorf("%s was shown an enemy piece on %s it cannot see: %s", us, sq, p.FEN())
		}
	}
	return s.Player.Move(ctx, start, p, history, clk)
}

// TestModeratedViews plays a moderated game between spies and checks that
// the match gave each only its view.
func TestModeratedViews(t *testing.T) {
	v := csipgsVariant(t, csipgs.Options{Moderated: true, MaxTurns: 30})
	truth := v.Start()
	view := truth.View(rules.White).Position
	if n := len(view.Pieces(rules.Black)); n != 0 {
		t.Fatalf("White's view of the start shows %d black pieces", n)
	}
	g := game.New(v, truth)
	var sides [2]*viewSpy
	for c := range sides {
		pl, _ := Spec{Kind: "greedy", Seed: uint64(c)}.New()
		sides[c] = &viewSpy{Player: pl, t: t}
	}
	for ply := 0; ply < 60 && !g.Status().Over(); ply++ {
		p := g.Position()
		m, err := moveFromView(context.Background(), sides[p.Turn()], p, Clock{})
		if err != nil {
			t.Fatal(err)
		}
		if err := play(g, m, nil); err != nil {
			t.Fatal(err)
		}
	}
	if sides[0].calls == 0 || sides[1].calls == 0 {
		t.Error("a side was never asked")
	}
}

// TestRefusals checks the moderator: a player that tries buys while a
// hidden knight gives check is refused, told, and plays a move instead.
func TestRefusals(t *testing.T) {
	v := csipgsVariant(t, csipgs.Options{Moderated: true})
	truth, err := v.ParseFEN("4k3/8/8/8/8/3n4/8/4K3 w 8/0 -/- PRNBKQ/PRNBKQ 0 10 " + csTable)
	if err != nil {
		t.Fatal(err)
	}
	if len(truth.View(rules.White).Position.Pieces(rules.Black)) != 0 {
		t.Fatal("White sees the knight")
	}
	pl, _ := Spec{Kind: "greedy", Seed: 1}.New()
	if err := pl.NewGame(context.Background(), v); err != nil {
		t.Fatal(err)
	}
	m, err := moveFromView(context.Background(), pl, truth, Clock{})
	if err != nil {
		t.Fatal(err)
	}
	if k := csipgs.KindOf(m); k != csipgs.PieceMove {
		t.Errorf("played %s, want a king move", notation.Coord(truth, m))
	}
	g := pl.(*greedyPlayer)
	if n := len(g.refused); n != 5 { // +Q, +R, +N, +B, +P
		t.Errorf("%d refusals, want 5 (every buy)", n)
	}
	// A player that does not listen to refusals loses at the first.
	if _, err := moveFromView(context.Background(), deaf{}, truth, Clock{}); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a deaf player: %v", err)
	}
}

// TestModeratorUnseenCapture: a rook move onto a square the mover's view
// shows empty, where an enemy knight stands out of sight, is a legal
// capture: the moderator plays it as the capture it is on the board.
func TestModeratorUnseenCapture(t *testing.T) {
	v := csipgsVariant(t, csipgs.Options{Moderated: true, Radius: 1})
	truth, err := v.ParseFEN("4k3/8/8/8/n7/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + csTable)
	if err != nil {
		t.Fatal(err)
	}
	m, err := moveFromView(context.Background(), says("a1a4"), truth, Clock{})
	if err != nil {
		t.Fatal(err)
	}
	if got := csipgs.FormatMove(truth, m); got != "Ra1xa4" || !truth.Playable(m) {
		t.Errorf("played %s (playable %v), want the capture Ra1xa4", got, truth.Playable(m))
	}
}

// says plays one move text in whatever position it is shown, and does
// not hear refusals.
type says string

func (s says) Name() string                                { return "says " + string(s) }
func (says) NewGame(context.Context, *rules.Variant) error { return nil }
func (says) Close() error                                  { return nil }
func (s says) Move(_ context.Context, _, p *rules.Position, _ []game.Ply, _ Clock) (rules.Move, error) {
	return notation.ParseMove(p, string(s))
}

// deaf always buys a queen and does not hear refusals.
type deaf struct{}

func (deaf) Name() string                                  { return "deaf" }
func (deaf) NewGame(context.Context, *rules.Variant) error { return nil }
func (deaf) Close() error                                  { return nil }
func (deaf) Move(_ context.Context, _, p *rules.Position, _ []game.Ply, _ Clock) (rules.Move, error) {
	return notation.ParseMove(p, "+Q")
}

// TestCsipgsMatch plays short csipgs matches of the engine against the
// reference player, open and moderated, and checks that they finish
// without errors and record the games.
func TestCsipgsMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games")
	}
	for _, moderated := range []bool{false, true} {
		v := csipgsVariant(t, csipgs.Options{Moderated: moderated, MaxTurns: 40})
		var out bytes.Buffer
		e, _ := ParseSpec("engine:depth=2")
		gr, _ := ParseSpec("greedy")
		st, err := Run(context.Background(), Config{
			Variant: v, Games: 2, Players: [2]Spec{e, gr}, TC: TimeControl{MoveTime: time.Second},
			Seed: 5, PGN: &out,
		})
		if err != nil {
			t.Fatal(err)
		}
		if st.Games() != 2 || len(st.Errors) != 0 {
			t.Errorf("moderated %v: %v, errors %v", moderated, st, st.Errors)
		}
		games, err := pgn.Parse(out.String())
		if err != nil || len(games) != 2 {
			t.Fatalf("PGN: %v, %d games", err, len(games))
		}
		if tag, _ := games[0].Tag("Moderated"); (tag == "1") != moderated {
			t.Errorf("Moderated tag %q", tag)
		}
	}
}
