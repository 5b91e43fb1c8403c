package vazir

import (
	"errors"
	"testing"

	"github.com/anychess/anychess/notation"
)

// TestTurnTokens reads and writes R-PGN turn tokens (section 1.9), with
// V11 and V12 as written in the specification.
func TestTurnTokens(t *testing.T) {
	v11 := "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0"
	tests := []struct {
		name, rfen, token string
		mpt               int
		want              string // RFEN after the turn
	}{
		{"V11 extra move", v11, "Rxf2~,Rxf2~,Kg2", 2, "k07/5R02/8/8/8/8/5n9K01/8 b - - 1 1 t0"},
		{"V12 quiet after a failure", v11, "Rxf2~,Kg2", 2, "k07/5R02/8/8/8/8/5n9K01/8 b - - 1 1 t0"},
		{"success after a failure", v11, "Rxf2~,Rxf2", 2, "k07/8/8/8/8/8/5R02/7K0 b - - 0 1 t0"},
		{"tries used up", "r56k0/8/8/8/8/8/8/R36K0 w - - 0 1 t0", "Rxa8~,Rxa8~,Rxa8~", 3, "r56k0/8/8/8/8/8/8/R36K0 b - - 1 1 t0"},
		{"with a roll comment", "r56k0/8/8/8/8/8/8/R36K0 w - - 0 1 t0", "Rxa8~{u=6/9},Rxa8+{u=1/9}", 3, "R36k0/8/8/8/8/8/8/7K0 b - - 0 1 t0"},
		{"certain capture", "k07/8/8/8/8/8/6P3P3/6r9K0 w - - 0 1 t0", "Kxg1", 3, "k07/8/8/8/8/8/6P3P3/6K01 b - - 0 1 t0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := newVariant(t, func(o *Options) { o.MPT = tc.mpt })
			p := parse(t, v, tc.rfen)
			steps, err := ParseTurn(p, tc.token)
			if err != nil {
				t.Fatal(err)
			}
			if RFEN(p) != tc.rfen {
				t.Errorf("ParseTurn changed the position: %s", RFEN(p))
			}
			back, err := FormatTurn(p, steps)
			if err != nil {
				t.Fatal(err)
			}
			if again, err := ParseTurn(p, back); err != nil || len(again) != len(steps) {
				t.Errorf("FormatTurn gave %q, which reads as %v, %v", back, again, err)
			}
			for _, st := range steps {
				p.MakeOutcome(st.Move, st.Outcome)
			}
			if got := RFEN(p); got != tc.want {
				t.Errorf("after %s: %s, want %s", tc.token, got, tc.want)
			}
		})
	}
	// The SAN of a failed try keeps its check mark: it is the attempt.
	p := parse(t, newVariant(t, nil), "r56k0/8/8/8/8/8/8/R36K0 w - - 0 1 t0")
	m := mv(t, p, "a1a8")
	if got, err := FormatTurn(p, []Step{{m, 1}, {m, 0}}); err != nil || got != "Rxa8+~,Rxa8+" {
		t.Errorf("FormatTurn = %q, %v", got, err)
	}
}

func TestTurnTokenErrors(t *testing.T) {
	v := newVariant(t, func(o *Options) { o.MPT = 2 })
	for _, tc := range []struct{ rfen, token string }{
		{"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0", ""},
		{"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0", "Rxf2~"},           // the turn goes on
		{"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0", "Rxf2~,Rxf2~"},     // the extra move is missing
		{"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0", "Kg2,Kf3"},         // two moves
		{"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0", "Rxf2~,Rxf2~,Rf3"}, // not a king move
		{"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0", "Zz9"},             // not a move
		{"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0", "Rxf2~{u=3,Kg2"},   // unclosed comment
		{"k07/8/8/8/8/8/6P3P3/6r9K0 w - - 0 1 t0", "Kxg1~,Kxg1"},      // a certain capture cannot fail
	} {
		if _, err := ParseTurn(parse(t, v, tc.rfen), tc.token); !errors.Is(err, ErrTurn) {
			t.Errorf("ParseTurn(%q): %v", tc.token, err)
		}
	}
	p := parse(t, v, "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t0")
	// The errors are those of package notation, which does the work.
	if _, err := ParseTurn(p, "Rxf2~"); !errors.Is(err, notation.ErrTurn) {
		t.Errorf("ParseTurn of an unfinished turn: %v", err)
	}
	if _, err := ParseTurn(p, "Zz9"); !errors.Is(err, notation.ErrSyntax) {
		t.Errorf("ParseTurn of no move: %v", err)
	}
	if _, err := FormatTurn(p, nil); !errors.Is(err, ErrTurn) {
		t.Errorf("FormatTurn of nothing: %v", err)
	}
	if _, err := FormatTurn(p, []Step{{mv(t, p, "h1g2"), 1}}); !errors.Is(err, ErrTurn) {
		t.Errorf("FormatTurn of a failed quiet move: %v", err)
	}
}
