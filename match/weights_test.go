package match

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
	"github.com/anychess/anychess/variant/csipgs"
)

// knightLiability are weights under which a knight is worth less than
// nothing to its owner: an engine with them leaves an enemy knight alone.
const knightLiability = "variant = \"chess\"\n[N]\nvalue.mg = -3000\nvalue.eg = -3000\n"

// writeFile writes text to the file name in a test's directory.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestEngineWeights: the engine option weights=none plays the hand-set
// evaluation and weights=FILE that file's weights, in place of the
// weights the game's variant carries: an undefended knight is taken or
// left as the weights value it.
func TestEngineWeights(t *testing.T) {
	chess, _ := vtest.Builtins().Get("chess")
	_, liability, err := variant.ParseWeights([]byte(knightLiability), "knight")
	if err != nil {
		t.Fatal(err)
	}
	odd := chess.WithWeights(liability)
	oddFile := writeFile(t, "odd.toml", knightLiability)
	tempoFile := writeFile(t, "tempo.toml", "variant = \"chess\"\ntempo = 12\n")
	const fen = "4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1"
	tests := []struct {
		name string
		v    *rules.Variant
		spec string
		take bool // Qxd5
	}{
		{"the variant's weights: hand-set values", chess, "engine:depth=1", true},
		{"the variant's weights: a knight a liability", odd, "engine:depth=1", false},
		{"weights=none over the variant's", odd, "engine:depth=1,weights=" + HandSet, true},
		{"a file over the variant's", chess, "engine:depth=1,weights=" + oddFile, false},
		{"a file replaces the variant's weights", odd, "engine:depth=1,weights=" + tempoFile, true},
	}
	for _, tc := range tests {
		pl := startPlayer(t, tc.spec, tc.v)
		p, err := tc.v.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := pl.Move(context.Background(), p, p.Clone(), nil, Clock{MoveTime: time.Second})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if took := notation.Coord(p, m) == "d1d5"; took != tc.take {
			t.Errorf("%s: %s; Qxd5 %v, want %v", tc.name, notation.Coord(p, m), took, tc.take)
		}
	}
}

// TestEngineWeightsRefused: a weights= option that gives no weights of
// the match's variant stops the match before its first game, with the
// reason.
func TestEngineWeightsRefused(t *testing.T) {
	chess, _ := vtest.Builtins().Get("chess")
	tests := []struct {
		name, file string // file: the weights file's text ("" for no file)
		want       string
		weightsErr bool // the error is variant.ErrWeights
	}{
		{"no such file", "", "no such file", false},
		{"not TOML", "tempo = = 3\n", "bad weights file", true},
		{"not a number", "tempo = \"fast\"\n", "bad weights file", true},
		{"another variant's", "variant = \"shogi\"\ntempo = 3\n", `for "shogi", not "chess"`, true},
		{"a name that is not a weight", "variant = \"chess\"\nspeed = 3\n", `"speed" is not a weight of chess`, true},
		{"a table of the wrong size", "[N]\nsquare.mg = [[1, 2], [3, 4]]\n", "N.square.mg", true},
	}
	r, _ := ParseSpec("random")
	for _, tc := range tests {
		file := filepath.Join(t.TempDir(), "missing.toml")
		if tc.file != "" {
			file = writeFile(t, "w.toml", tc.file)
		}
		sp, err := ParseSpec("engine:depth=1,weights=" + file)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		st, err := Run(context.Background(), Config{Variant: chess, Games: 2, Players: [2]Spec{r, sp}, TC: TimeControl{MoveTime: time.Second}})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "player 2") {
			t.Errorf("%s: %v, want an error of player 2 with %q", tc.name, err, tc.want)
		}
		if tc.weightsErr && !errors.Is(err, variant.ErrWeights) {
			t.Errorf("%s: %v is not ErrWeights", tc.name, err)
		}
		if st.Games() != 0 {
			t.Errorf("%s: %d games played", tc.name, st.Games())
		}
	}
	if _, err := ParseSpec("engine:weights="); err == nil || !strings.Contains(err.Error(), "weights= needs none") {
		t.Errorf("engine:weights= gave %v", err)
	}
}

// TestEngineWeightsModerated: in a moderated csipgs game the engine with
// weights=none searches every view it is given with the hand-set
// evaluation, though the variant and its views carry learned weights.
func TestEngineWeightsModerated(t *testing.T) {
	learned := map[string]float64{"csipgs.zorkmid": 20}
	defer func(f func(string) (map[string]float64, error)) { variant.WeightsOf = f }(variant.WeightsOf)
	variant.WeightsOf = func(string) (map[string]float64, error) { return learned, nil }
	v := csipgsVariant(t, csipgs.Options{Moderated: true, MaxTurns: 40})
	e := startPlayer(t, "engine:nodes=300,weights="+HandSet, v).(*enginePlayer)
	p := v.Start()
	for ply := 0; ply < 12 && !p.Status().Over(); ply++ {
		view := p.View(p.Turn()).Position
		if view.Variant().Spec().Weights["csipgs.zorkmid"] != 20 {
			t.Fatalf("ply %d: the view's variant carries %v, want the learned weights", ply, view.Variant().Spec().Weights)
		}
		m, err := e.Move(context.Background(), view, view.Clone(), nil, Clock{MoveTime: time.Second})
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		c, ok := e.rw.copies[view.Variant()]
		if !ok {
			t.Fatalf("ply %d: the view was not searched on a copy of its variant", ply)
		}
		if len(c.Spec().Weights) != 0 || !c.SameRules(view.Variant()) {
			t.Fatalf("ply %d: the view was searched with the weights %v, want a copy of its variant without weights", ply, c.Spec().Weights)
		}
		mv, err := p.Moderate(view, m)
		if err != nil {
			t.Fatalf("ply %d: the moderator refused %s: %v", ply, notation.Coord(view, m), err)
		}
		p.Make(mv)
	}
}
