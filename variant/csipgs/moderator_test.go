package csipgs

import (
	"errors"
	"testing"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// TestModerate checks the moderator (CS-M1, CS-M5, rules.Position.Moderate):
// a decision chosen from a view is judged by its text on the true
// position.
func TestModerate(t *testing.T) {
	radius := Options{Moderated: true, Radius: 1}
	hidden := Options{Moderated: true, HideEconomy: true}
	for _, tt := range []struct {
		name string
		o    Options
		fen  string
		text string // the decision, as read in the mover's view
		want string // the move played in the true position (FormatMove); "" refused
	}{
		// White cannot see the knight on a4: the view has a1a4 as a quiet
		// move, the true position as a capture.
		{"capture of an unseen piece", radius, "4k3/8/8/8/n7/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table, "a1a4", "Ra1xa4"},
		{"blocked by an unseen piece", radius, "4k3/8/8/8/n7/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table, "a1a8", ""},
		{"a quiet move", radius, "4k3/8/8/8/n7/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table, "a1a3", "Ra1-a3"},
		// Black's slot A is hidden from White: the view offers A for a
		// new design, which the true position gives another letter.
		{"a new design under a letter the view thinks free", hidden,
			"4k3/8/8/8/8/8/8/4K3 w& 0/0 -/- PRNBKQ/ARNBKQ 0 10 {A=WF,B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}", "&P>A=FfR", "&P>C=FfR"},
		{"no change", hidden, "4k3/8/8/8/8/8/8/4K3 w& 0/0 -/- PRNBKQ/ARNBKQ 0 10 {A=WF,B=B,K=royal-K,N=N,P=fmWfcF,Q=Q,R=R}", "&-", "&-"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := newVariant(t, tt.o)
			p := mustFEN(t, v, tt.fen)
			fen := p.FEN()
			view := p.View(p.Turn()).Position
			m, err := notation.ParseMove(view, tt.text)
			if err != nil {
				t.Fatalf("%s in the view %s: %v", tt.text, view.FEN(), err)
			}
			real, err := p.Moderate(view, m)
			if p.FEN() != fen {
				t.Errorf("the moderator changed the position: %s", p.FEN())
			}
			if tt.want == "" {
				var r *Refusal
				if !errors.Is(err, rules.ErrRefused) || !errors.As(err, &r) {
					t.Errorf("Moderate = %v, %v; want a refusal", FormatMove(p, real), err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Moderate: %v", err)
			}
			if got := FormatMove(p, real); got != tt.want || !p.Playable(real) {
				t.Errorf("Moderate = %s (playable %v), want %s", got, p.Playable(real), tt.want)
			}
		})
	}
}

// TestViewHalfmove: the halfmove counter of a view does not tell whether
// the opponent's unseen action was a pawn move (which resets it).
func TestViewHalfmove(t *testing.T) {
	v := newVariant(t, Options{Moderated: true})
	seen := map[string]string{}
	for _, black := range []string{"a7a6", "a8b8"} {
		p := mustFEN(t, v, "k7/p7/8/8/8/8/8/4K3 w 0/0 -/- PRNBKQ/PRNBKQ 7 10 "+table)
		for _, text := range []string{"e1d1", "&-", black, "&-"} {
			m, err := notation.ParseMove(p, text)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			p.Make(m)
		}
		seen[black] = p.View(rules.White).Position.FEN()
	}
	if seen["a7a6"] != seen["a8b8"] {
		t.Errorf("White's view tells the pawn move from the king move:\n%s\n%s", seen["a7a6"], seen["a8b8"])
	}
}

// TestTerrainSecret: the terrain is a secret option (CS-M3: hidden until
// seen in the moderated mode), whatever the other options.
func TestTerrainSecret(t *testing.T) {
	terrain := map[string]string{"Terrain": "d4,e5", "MapSize": "8x8"}
	for _, moderated := range []string{"1", "0"} {
		t.Run("Moderated="+moderated, func(t *testing.T) {
			v, err := newVariant(t, DefaultOptions()).Configure(map[string]string{"Moderated": moderated, "Terrain": "d4,e5"})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range v.Options() {
				if o.Secret != (o.Name == "Terrain") {
					t.Errorf("option %s: Secret %v", o.Name, o.Secret)
				}
			}
			pub := v.PublicOptions(terrain)
			if _, ok := pub["Terrain"]; ok || pub["MapSize"] != "8x8" {
				t.Errorf("PublicOptions = %v", pub)
			}
		})
	}
}

// TestRefusalTellsNoSecret: a refusal in the moderated mode says no more
// than the mover's view shows (CS-M5: "illegal, try again").
func TestRefusalTellsNoSecret(t *testing.T) {
	a5 := geom.Sq(0, 4)
	for _, tt := range []struct {
		name   string
		o      Options
		fen    string
		text   string
		reason string
	}{
		// a5 is impassable and White, seeing one square around its
		// pieces, cannot see it.
		{"unseen terrain", Options{Moderated: true, Radius: 1, Terrain: []geom.Square{a5}},
			"4k3/8/8/*7/8/8/8/R3K3 w 0/0 -/- PRNBKQ/PRNBKQ 0 10 " + table, "a1a5", "illegal, try again"},
		// The rook on e8 checks White's king unseen: the buy is refused
		// without saying why.
		{"unseen check", Options{Moderated: true, Radius: 1},
			"k3r3/8/8/8/8/8/8/4K3 w 5/5 -/- PRNBKQ/PRNBKQ 0 10 " + table, "+P", "illegal, try again"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := newVariant(t, tt.o)
			p := mustFEN(t, v, tt.fen)
			view := p.View(p.Turn()).Position
			m, err := notation.ParseMove(view, tt.text)
			if err != nil {
				t.Fatalf("%s in the view %s: %v", tt.text, view.FEN(), err)
			}
			_, err = p.Moderate(view, m)
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("Moderate: %v, want a refusal", err)
			}
			if r.Reason != tt.reason {
				t.Errorf("reason %q, want %q", r.Reason, tt.reason)
			}
		})
	}
}
