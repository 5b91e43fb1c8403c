package tune_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/tune"
)

// firstMover is a teacher that plays the first legal move by its text
// and scores a position by its material for the side to move.
type firstMover struct{ games int }

func (f *firstMover) NewGame(context.Context) error { f.games++; return nil }

func (f *firstMover) Play(_ context.Context, p *rules.Position) (rules.Move, int, int, error) {
	ms := p.LegalMoves(nil)
	slices.SortFunc(ms, func(a, b rules.Move) int { return strings.Compare(notation.Coord(p, a), notation.Coord(p, b)) })
	score := 10 * (len(p.Pieces(p.Turn())) - len(p.Pieces(p.Turn().Other())))
	return ms[0], score, 0, nil
}

// slowMover is firstMover that waits before each game, so that a faster
// teacher beside it finishes later games first; after fail games, if
// fail is above 0, it fails.
type slowMover struct {
	firstMover
	wait time.Duration
	fail int
}

func (s *slowMover) NewGame(ctx context.Context) error {
	if s.fail > 0 && s.games >= s.fail {
		return errors.New("the teacher is gone")
	}
	time.Sleep(s.wait)
	return s.firstMover.NewGame(ctx)
}

// TestNetSampleTeachers: teachers playing at once write the sample one
// teacher writes; a teacher that fails stops the sample after whole games,
// and the sample continued is the same again.
func TestNetSampleTeachers(t *testing.T) {
	v := chessVariant(t)
	dir := t.TempDir()
	cfg := tune.NetSampleConfig{Games: 12, Seed: 5, Random: 4, Stray: 0.3, MaxPlies: 30}
	one := filepath.Join(dir, "one")
	if err := tune.NetSample(context.Background(), v, []tune.NetPlayer{&firstMover{}}, cfg, one); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(one)
	three := filepath.Join(dir, "three")
	slow := &slowMover{wait: 5 * time.Millisecond}
	fast := &firstMover{}
	if err := tune.NetSample(context.Background(), v, []tune.NetPlayer{slow, fast, &firstMover{}}, cfg, three); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(three); !bytes.Equal(got, want) {
		t.Errorf("three teachers wrote another sample:\n%s\n---\n%s", got, want)
	}
	if slow.games == 0 || fast.games == 0 {
		t.Errorf("games played by the teachers: %d and %d; each should play some", slow.games, fast.games)
	}
	broken := filepath.Join(dir, "broken")
	err := tune.NetSample(context.Background(), v, []tune.NetPlayer{&slowMover{fail: 2}, &slowMover{fail: 3}}, cfg, broken)
	if err == nil || !strings.Contains(err.Error(), "the teacher is gone") {
		t.Fatalf("a failing teacher gave %v", err)
	}
	part, _ := os.ReadFile(broken)
	// which games were whole when the teacher failed depends on the
	// teachers' timing: none, if the other teacher still played the first
	games := strings.Count(string(part), "# game ")
	closed := fmt.Appendf(nil, "# game %d\n", games)
	if !bytes.HasPrefix(want, part) || games >= cfg.Games || len(part) > 0 && !bytes.HasSuffix(part, closed) {
		t.Fatalf("the broken sample is not whole games of the sample:\n%s", part)
	}
	if err := tune.NetSample(context.Background(), v, []tune.NetPlayer{&firstMover{}, &firstMover{}}, cfg, broken); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(broken); !bytes.Equal(got, want) {
		t.Errorf("the continued sample differs:\n%s\n---\n%s", got, want)
	}
	if err := tune.NetSample(context.Background(), v, nil, cfg, filepath.Join(dir, "none")); err == nil {
		t.Error("a sample without a teacher gave no error")
	}
}

func chessVariant(t testing.TB) *rules.Variant {
	t.Helper()
	v, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestNetSampleResume: a sample interrupted, even within a game, and
// continued is the sample played at once; its lines are positions with
// their teacher's scores and a line closing each game.
func TestNetSampleResume(t *testing.T) {
	v := chessVariant(t)
	dir := t.TempDir()
	cfg := tune.NetSampleConfig{Games: 6, Seed: 3, Random: 4, Stray: 0.3, MaxPlies: 40}
	whole := filepath.Join(dir, "whole")
	if err := tune.NetSample(context.Background(), v, []tune.NetPlayer{&firstMover{}}, cfg, whole); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "part")
	cfg4 := cfg
	cfg4.Games = 4
	if err := tune.NetSample(context.Background(), v, []tune.NetPlayer{&firstMover{}}, cfg4, part); err != nil {
		t.Fatal(err)
	}
	// an interruption in the fifth game: a line of it written
	f, err := os.OpenFile(part, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "%s;17\n", v.StartFEN())
	f.Close()
	pl := &firstMover{}
	if err := tune.NetSample(context.Background(), v, []tune.NetPlayer{pl}, cfg, part); err != nil {
		t.Fatal(err)
	}
	if pl.games != 2 {
		t.Errorf("the resumed sample played %d games, want 2", pl.games)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(part)
	if !bytes.Equal(a, b) {
		t.Errorf("the resumed sample differs from the sample played at once:\n%s\n---\n%s", b, a)
	}
	lines := strings.Split(strings.TrimSpace(string(a)), "\n")
	if n := strings.Count(string(a), "# game "); n != 6 {
		t.Errorf("%d games closed, want 6", n)
	}
	if len(lines) < 6+20 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "#") {
			continue
		}
		fen, score, _ := strings.Cut(l, ";")
		p, err := v.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		_, want, _, _ := (&firstMover{}).Play(context.Background(), p)
		if score != fmt.Sprint(want) || p.InCheck() {
			t.Errorf("line %q: want the score %d of a position not in check", l, want)
		}
	}
}

// TestReadNetSampleErrors: a line of a sample that is not a position and
// a score is an error naming it.
func TestReadNetSampleErrors(t *testing.T) {
	v := chessVariant(t)
	n, err := eval.NewNetwork("PNBRQK", 8, 8, 4)
	if err != nil {
		t.Fatal(err)
	}
	start := v.StartFEN()
	for _, tc := range []struct{ name, text, want string }{
		{"no score", start + "\n", "line 1"},
		{"bad score", "# game 1\n" + start + ";x\n", "line 2"},
		{"huge score", start + ";1000001\n", "line 1"},
		{"bad position", "8/8/8 w - - 0 1;5\n", "line 1"},
		{"long line", strings.Repeat("x", tune.MaxNetLine+1) + "\n", "too long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tune.ReadNetSample(strings.NewReader(tc.text), v, n, func(*rules.Position) int { return 0 })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
	noKing, err := eval.NewNetwork("PNBRQ", 8, 8, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tune.ReadNetSample(strings.NewReader(start+";5\n"), v, noKing, func(*rules.Position) int { return 0 }); err == nil || !strings.Contains(err.Error(), "no input for K") {
		t.Errorf("a network without the king's inputs: error %v", err)
	}
	_, err = tune.ReadNetSample(strings.NewReader("# game 1\n"+start+";-35\n"), v, n, func(*rules.Position) int { return 40 })
	if err != nil {
		t.Fatal(err)
	}
}

// FuzzReadNetSample: any text is read or refused, never a panic.
func FuzzReadNetSample(f *testing.F) {
	v := chessVariant(f)
	n, err := eval.NewNetwork("PNBRQK", 8, 8, 2)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(v.StartFEN() + ";12\n# game 1\n")
	f.Add("x;y\n")
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := tune.ReadNetSample(strings.NewReader(text), v, n, func(*rules.Position) int { return 0 })
		for _, p := range ps {
			if p.Target < 0 || p.Target > 1 || len(p.Pieces) > 64 {
				t.Fatalf("a position %+v", p)
			}
		}
		_ = err
	})
}

// TestTrainNetwork: on positions scored by a network of known weights
// (a teacher of 8 hidden units, over the evaluation's scores), the fit
// of a network of 16 takes the held-out loss from the evaluation's alone
// to a small part of it, and the network the evaluation then uses (in
// integers) scores as the fit does.
func TestTrainNetwork(t *testing.T) {
	v := chessVariant(t)
	teacher, err := eval.NewNetwork("PNBRQK", 8, 8, 8)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, w := range [][]float32{teacher.W1, teacher.B1, teacher.W2} {
		for i := range w {
			w[i] = float32(rng.NormFloat64() * 0.15)
		}
	}
	teacher.Quantize()
	var buf bytes.Buffer
	if _, err := teacher.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	spec := v.Spec()
	spec.Network = buf.Bytes()
	tv, err := rules.Compile(spec)
	if err != nil {
		t.Fatal(err)
	}
	linear := eval.NewWeights(v, v.Spec().Weights)
	scored := eval.New(tv) // the evaluation with the teacher's correction
	var sample strings.Builder
	for g := 0; g < 150; g++ {
		p := v.Start()
		for ply := 0; ply < 60 && !p.Status().Over(); ply++ {
			ms := p.LegalMoves(nil)
			p.Make(ms[rng.IntN(len(ms))])
			q, err := tv.ParseFEN(p.FEN())
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sample, "%s;%d\n", p.FEN(), scored.Evaluate(q))
		}
	}
	n, err := eval.NewNetwork("PNBRQK", 8, 8, 16)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := tune.ReadNetSample(strings.NewReader(sample.String()), v, n, linear.Evaluate)
	if err != nil {
		t.Fatal(err)
	}
	valid := len(ps) / 10
	base := tune.LinearLoss(ps[len(ps)-valid:])
	loss, err := tune.TrainNetwork(n, ps, tune.NetTrainConfig{Epochs: 30, Rate: 0.01, Batch: 64, Valid: valid, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d positions: held-out loss %.6f alone, %.6f with the network", len(ps), base, loss)
	if loss > base/4 {
		t.Errorf("held-out loss %.6f with the network, want below a quarter of %.6f", loss, base)
	}
	// The evaluation's integers against the fit's floats.
	var nb bytes.Buffer
	if _, err := n.WriteTo(&nb); err != nil {
		t.Fatal(err)
	}
	spec.Network = nb.Bytes()
	fv, err := rules.Compile(spec)
	if err != nil {
		t.Fatal(err)
	}
	fitted := eval.New(fv)
	far := 0
	lines := strings.Split(strings.TrimSpace(sample.String()), "\n")
	for i, l := range lines[len(lines)-valid:] {
		fen, _, _ := strings.Cut(l, ";")
		p, err := fv.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		x := ps[len(ps)-valid+i]
		want := 400 * (math.Log(float64(tune.NetPredict(n, &x))) - math.Log(1-float64(tune.NetPredict(n, &x))))
		if got := float64(fitted.Evaluate(p)); math.Abs(got-want) > 3 {
			far++
			if far < 5 {
				t.Errorf("%s: the evaluation %v, the fit %.1f", fen, got, want)
			}
		}
	}
}

// aheadGate ties the two teachers of TestNetSampleAhead: gatedMover holds
// its first game until open is closed, and countedMover counts the games
// it starts.
type aheadGate struct {
	mu      sync.Mutex
	fast    int // games countedMover started
	base    int // fast when gatedMover began to hold its game
	holding chan struct{}
	open    chan struct{}
	started chan int // fast after each of countedMover's games starts
}

type gatedMover struct {
	firstMover
	g *aheadGate
}

func (m *gatedMover) NewGame(ctx context.Context) error {
	if m.games == 0 {
		m.g.mu.Lock()
		m.g.base = m.g.fast
		m.g.mu.Unlock()
		close(m.g.holding)
		<-m.g.open
	}
	return m.firstMover.NewGame(ctx)
}

type countedMover struct {
	firstMover
	g *aheadGate
}

func (m *countedMover) NewGame(ctx context.Context) error {
	m.g.mu.Lock()
	m.g.fast++
	n := m.g.fast
	m.g.mu.Unlock()
	m.g.started <- n
	return m.firstMover.NewGame(ctx)
}

// TestNetSampleAhead: while one teacher holds a game, the other starts at
// most cfg.Ahead games more (it had the games before the held one, and
// may have the cfg.Ahead-1 after it), so that its games do not pile up in
// memory; when the game is done the sample is the one a single teacher
// writes.
func TestNetSampleAhead(t *testing.T) {
	v := chessVariant(t)
	dir := t.TempDir()
	cfg := tune.NetSampleConfig{Games: 30, Seed: 9, Random: 4, Stray: 0.3, MaxPlies: 12, Ahead: 3}
	one := filepath.Join(dir, "one")
	if err := tune.NetSample(context.Background(), v, []tune.NetPlayer{&firstMover{}}, cfg, one); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(one)
	g := &aheadGate{holding: make(chan struct{}), open: make(chan struct{}), started: make(chan int, cfg.Games)}
	done := make(chan error, 1)
	two := filepath.Join(dir, "two")
	go func() {
		done <- tune.NetSample(context.Background(), v, []tune.NetPlayer{&gatedMover{g: g}, &countedMover{g: g}}, cfg, two)
	}()
	select {
	case <-g.holding:
	case err := <-done:
		t.Fatalf("the sample ended (%v) before the gated teacher had a game", err)
	}
	// Without a bound the other teacher plays on to the end at once: wait
	// for it to pass the bound, or a while.
	g.mu.Lock()
	base := g.base
	g.mu.Unlock()
	most := base
	wait := time.After(300 * time.Millisecond)
watch:
	for most-base <= cfg.Ahead {
		select {
		case most = <-g.started:
		case <-wait:
			break watch
		}
	}
	close(g.open)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if most-base > cfg.Ahead {
		t.Errorf("the other teacher started %d games while one was held; want at most %d", most-base, cfg.Ahead)
	}
	if got, _ := os.ReadFile(two); !bytes.Equal(got, want) {
		t.Errorf("two teachers wrote another sample")
	}
}
