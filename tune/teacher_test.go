package tune

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/rules"
)

// fakeTeacher scores a position by its FEN: scores[FEN] for the side to
// move (a mate where mates[FEN] is set); failAt makes the search of that
// FEN an error, openErr makes Open fail.
type fakeTeacher struct {
	name    string
	scores  map[string]int
	mates   map[string]int
	failAt  string
	openErr error

	mu       sync.Mutex
	opened   int
	closed   int
	newGames int
	nodes    []int64
}

func (t *fakeTeacher) Name() string { return t.name }

func (t *fakeTeacher) Open(ctx context.Context, v *rules.Variant) (Scorer, error) {
	if t.openErr != nil {
		return nil, t.openErr
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.opened++
	return fakeScorer{t}, nil
}

type fakeScorer struct{ t *fakeTeacher }

func (s fakeScorer) NewGame(ctx context.Context) error {
	s.t.mu.Lock()
	defer s.t.mu.Unlock()
	s.t.newGames++
	return nil
}

func (s fakeScorer) Score(ctx context.Context, p *rules.Position, nodes int64) (int, int, error) {
	s.t.mu.Lock()
	defer s.t.mu.Unlock()
	s.t.nodes = append(s.t.nodes, nodes)
	fen := p.FEN()
	if fen == s.t.failAt {
		return 0, 0, errors.New("the engine exited")
	}
	return s.t.scores[fen], s.t.mates[fen], nil
}

func (s fakeScorer) Close() error {
	s.t.mu.Lock()
	defer s.t.mu.Unlock()
	s.t.closed++
	return nil
}

// TestLabelTeacher: a teacher's scores, for the side to move, are stored
// for White, a mate as MateScore and a score beyond it cut to it; its
// name, not the weights, goes in the header, so the labels of another
// teacher, or of our own engine, are refused; a teacher that fails
// stops the labelling with its error and the position, and every scorer
// opened is closed.
func TestLabelTeacher(t *testing.T) {
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	fens := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
	}
	sample := func() Sample {
		return Sample{Header: "# anychess tune sample: test", Games: map[int]bool{0: true, 1: true, 2: true},
			Positions: []Position{
				{Game: 0, FEN: fens[0], Result: 1},
				{Game: 0, FEN: fens[1], Result: 1},
				{Game: 1, FEN: fens[2], Result: 0},
				{Game: 1, FEN: fens[3], Result: 0},
				{Game: 2, FEN: fens[4], Result: 0.5},
			}}
	}
	teacher := func() *fakeTeacher {
		return &fakeTeacher{name: "uci:/opt/teacher", scores: map[string]int{
			fens[0]: 30, fens[1]: -40, fens[2]: 5000, fens[3]: 25, fens[4]: -7,
		}, mates: map[string]int{fens[3]: 3}}
	}
	want := []float64{30, 40, 3000, -3000, -7}
	dir := t.TempDir()
	path := filepath.Join(dir, "chess.labels")
	tt := teacher()
	s := sample()
	c := LabelConfig{Nodes: 777, Workers: 2, Teacher: tt}
	if err := Label(context.Background(), v, c, s, path, nil); err != nil {
		t.Fatal(err)
	}
	for i, p := range s.Positions {
		if !p.Scored || p.Score != want[i] {
			t.Errorf("position %d (%s): score %v (scored %v), want %v for White", i, p.FEN, p.Score, p.Scored, want[i])
		}
	}
	if tt.newGames != 3 || tt.opened != 2 || tt.closed != 2 {
		t.Errorf("%d new games, %d scorers opened, %d closed; want 3, 2, 2", tt.newGames, tt.opened, tt.closed)
	}
	for _, n := range tt.nodes {
		if n != 777 {
			t.Errorf("the teacher searched %d nodes, want 777", n)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(string(data), "\n")
	if !strings.Contains(header, "teacher uci:/opt/teacher") || strings.Contains(header, "weights") {
		t.Errorf("header %q does not name the teacher alone", header)
	}
	// Resumed with the same teacher: nothing is searched again.
	again := teacher()
	c.Teacher = again
	s2 := sample()
	if err := Label(context.Background(), v, c, s2, path, nil); err != nil {
		t.Fatal(err)
	}
	if len(again.nodes) != 0 || again.opened != 0 {
		t.Errorf("a finished labels file was searched again: %d positions, %d scorers", len(again.nodes), again.opened)
	}
	for i, p := range s2.Positions {
		if p.Score != want[i] {
			t.Errorf("resumed position %d: %v, want %v", i, p.Score, want[i])
		}
	}
	// Another teacher's scores, or our engine's, are refused.
	other := teacher()
	other.name = "uci:/opt/other"
	c.Teacher = other
	if err := Label(context.Background(), v, c, sample(), path, nil); !errors.Is(err, ErrSample) {
		t.Errorf("another teacher's labels resumed: %v", err)
	}
	if err := Label(context.Background(), v, LabelConfig{Nodes: 777}, sample(), path, nil); !errors.Is(err, ErrSample) {
		t.Errorf("the engine resumed a teacher's labels: %v", err)
	}
	// A teacher that fails stops the labelling with its error.
	bad := teacher()
	bad.failAt = fens[3]
	err = Label(context.Background(), v, LabelConfig{Nodes: 777, Teacher: bad}, sample(), filepath.Join(dir, "bad.labels"), nil)
	if err == nil || !strings.Contains(err.Error(), "the engine exited") || !strings.Contains(err.Error(), fens[3]) {
		t.Errorf("a failing teacher: %v", err)
	}
	if bad.opened != bad.closed {
		t.Errorf("%d scorers opened, %d closed", bad.opened, bad.closed)
	}
	got, _ := ReadLabels(filepath.Join(dir, "bad.labels"), "")
	if _, ok := got[1]; ok {
		t.Error("the failed game was written")
	}
	broken := teacher()
	broken.openErr = errors.New("no such program")
	err = Label(context.Background(), v, LabelConfig{Nodes: 777, Teacher: broken}, sample(), filepath.Join(dir, "broken.labels"), nil)
	if err == nil || !strings.Contains(err.Error(), "no such program") {
		t.Errorf("a teacher that cannot start: %v", err)
	}
}

// TestFitLabelK: the K fitted to scores on another scale undoes that
// scale: scores twice those of a curve with K 1 give K 1/2.
func TestFitLabelK(t *testing.T) {
	d := &Data{Names: []string{"a"}, Init: []float64{0}}
	for i := range 200 {
		s := float64(i*10 - 1000)
		d.Add([]float64{0}, 0, sigmoid(s, 1))
		d.Label = append(d.Label, 2*s)
	}
	if k := d.FitLabelK(); k < 0.49 || k > 0.51 {
		t.Errorf("K %v, want 0.5", k)
	}
}
