package server

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/server/loadtest"
)

// frameActions reads the actions and the legal moves of a state frame.
func frameActions(t *testing.T, f *loadtest.Frame) ([]face.Action, []string) {
	t.Helper()
	var sf stateFrame
	if err := json.Unmarshal(f.Raw, &sf); err != nil {
		t.Fatal(err)
	}
	return sf.Actions, sf.Legal
}

const shopFEN = "4k3/8/8/8/8/8/8/4K3 w 5/5 N/- PRNBKQ/PRNBKQ 0 1 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q}"

// TestStateActions: the seat to move of a csipgs game gets its actions
// labelled and grouped (purchases in the shop, transfers as pieces from
// the reserve), each one of its legal moves and no piece move among them;
// the seat not to move and a spectator get none.
func TestStateActions(t *testing.T) {
	ts := newTestServer(t, "", nil)
	id, w, b, _ := humanGame(t, ts, map[string]any{"variant": "csipgs", "fen": shopFEN})
	spec := join(t, ts, id, "", 0)
	actions, legal := frameActions(t, w.stateAt(0))
	for _, want := range []face.Action{
		{Move: "+N", Label: "buy N (N) — 3 zorkmids", Group: "shop"},
		{Move: "N@d2", Label: "put N from the reserve on d2", Group: "reserve", Piece: "N", To: "d2"},
	} {
		if !slices.Contains(actions, want) {
			t.Errorf("white's actions lack %+v: %+v", want, actions)
		}
	}
	for _, a := range actions {
		if !slices.Contains(legal, a.Move) {
			t.Errorf("the action %s is not among the legal moves %v", a.Move, legal)
		}
		if a.Move == "e1e2" {
			t.Errorf("the king's move is an action: %+v", a)
		}
	}
	for _, c := range []*seatClient{b, spec} {
		if got, _ := frameActions(t, c.stateAt(0)); len(got) != 0 {
			t.Errorf("%s, not to move, gets actions %+v", c.seat, got)
		}
	}
	// After a purchase the design phase: keeping the designs.
	v := w.mustMove("+N")
	actions, _ = frameActions(t, w.stateAt(v))
	if !slices.Contains(actions, face.Action{Move: "&-", Label: "keep the designs", Group: "design"}) {
		t.Errorf("the design phase's actions lack keeping the designs: %+v", actions)
	}
}

// TestHiddenStateActions: in a moderated csipgs game the actions of the
// seat to move are those of its view, not of the board, and a spectator
// gets none.
func TestHiddenStateActions(t *testing.T) {
	ts := newTestServer(t, "", nil)
	id, w, _, _ := humanGame(t, ts, map[string]any{"variant": "csipgs",
		"options": map[string]string{"Moderated": "1", "Visibility": "Radius(1)"},
		"fen":     "4k3/8/8/4r3/8/8/8/4K3 w 5/5 N/- PRNBKQ/PRNBKQ 0 1 {P=fmWfcF,R=R,N=N,B=B,K=royal-K,Q=Q}"})
	spec := join(t, ts, id, "", 0)
	got, _ := frameActions(t, w.stateAt(0))
	ts.mu.Lock()
	lg := ts.games[id]
	ts.mu.Unlock()
	var fromView, fromBoard []face.Action
	lg.call(ctxT(t), func() {
		p := lg.g.Position()
		view := p.View(rules.White).Position
		fromView = face.Actions(lg.g.Variant, view, view.LegalMoves(nil))
		fromBoard = face.Actions(lg.g.Variant, p, p.LegalMoves(nil))
	})
	if len(fromView) == 0 || !reflect.DeepEqual(got, fromView) {
		t.Errorf("white's actions %+v, want its view's %+v", got, fromView)
	}
	// An unseen rook checks white's king: on the board nothing but king
	// moves; the view offers purchases and transfers.
	if reflect.DeepEqual(fromBoard, fromView) {
		t.Fatalf("the view's actions are the board's %+v: the position shows nothing", fromBoard)
	}
	if a, _ := frameActions(t, spec.stateAt(0)); len(a) != 0 {
		t.Errorf("a spectator gets actions %+v", a)
	}
}
