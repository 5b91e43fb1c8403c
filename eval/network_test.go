package eval_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// randomNetwork returns a network for chess with weights drawn from seed,
// as a network file.
func randomNetwork(t testing.TB, hidden int, clip float32, seed uint64) (*eval.Network, []byte) {
	t.Helper()
	n, err := eval.NewNetwork("PNBRQK", 8, 8, hidden)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, w := range [][]float32{n.W1, n.B1, n.W2} {
		for i := range w {
			w[i] = float32(rng.NormFloat64() * 0.3)
		}
	}
	n.B2, n.Clip = 0.05, clip
	n.Quantize()
	var buf bytes.Buffer
	if _, err := n.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return n, buf.Bytes()
}

// withNetwork returns chess carrying the network file data.
func withNetwork(t testing.TB, data []byte) *rules.Variant {
	t.Helper()
	chess, err := catalog.MustDefault().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	spec := chess.Spec()
	spec.Network = data
	v, err := rules.Compile(spec)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestNetworkRoundTrip: a network written and read back is the same.
func TestNetworkRoundTrip(t *testing.T) {
	n, data := randomNetwork(t, 24, 1.5, 1)
	m, err := eval.ReadNetwork(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(n, m) {
		t.Error("the network read back differs from the one written")
	}
}

// TestReadNetworkErrors: a file that is not a whole network of bounded
// size is refused with ErrNetwork.
func TestReadNetworkErrors(t *testing.T) {
	_, good := randomNetwork(t, 4, 0, 2)
	hidden := len("anychess-net-1\n") + 1 + 6 + 2 // the hidden units' offset
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"not a network", []byte("hello")},
		{"cut short", good[:len(good)-3]},
		{"data after it", append(bytes.Clone(good), 0)},
		{"no letters", append([]byte("anychess-net-1\n"), 0, 8, 8)},
		{"too many hidden units", func() []byte {
			d := bytes.Clone(good)
			d[hidden], d[hidden+1] = 0xff, 0xff
			return d
		}()},
		{"lower-case letter", bytes.Replace(bytes.Clone(good), []byte("PNBRQK"), []byte("pNBRQK"), 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := eval.ReadNetwork(bytes.NewReader(tc.data)); !errors.Is(err, eval.ErrNetwork) {
				t.Errorf("error %v, want ErrNetwork", err)
			}
		})
	}
}

// FuzzReadNetwork: any bytes give a network that writes back the same, or
// ErrNetwork; never a panic.
func FuzzReadNetwork(f *testing.F) {
	_, good := randomNetwork(f, 2, 0.5, 3)
	f.Add(good)
	f.Add([]byte("anychess-net-1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := eval.ReadNetwork(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, eval.ErrNetwork) {
				t.Fatalf("error %v is not ErrNetwork", err)
			}
			return
		}
		var buf bytes.Buffer
		if _, err := n.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), data) {
			t.Error("the network read does not write back as it was")
		}
	})
}

// TestCheckNetwork: a network fits a variant with its board and every
// piece type of the variant among its letters.
func TestCheckNetwork(t *testing.T) {
	_, data := randomNetwork(t, 4, 0, 4)
	reg := catalog.MustDefault()
	for _, tc := range []struct {
		variant string
		fits    bool
	}{
		{"chess", true},
		{"greatshatranj", false}, // 10x10
		{"makruk", false},        // 8x8, its own letters
	} {
		v, err := reg.Get(tc.variant)
		if err != nil {
			t.Fatal(err)
		}
		if err := eval.CheckNetwork(v, data); (err == nil) != tc.fits {
			t.Errorf("%s: error %v, want it to fit: %v", tc.variant, err, tc.fits)
		}
	}
}

// TestNetworkIncremental: a search thread's state, carried from position
// to position along random games and jumping between them, gives the
// same correction as a state fresh for each position, and the
// evaluation is the evaluation without the network plus the correction.
func TestNetworkIncremental(t *testing.T) {
	_, data := randomNetwork(t, 32, 0, 5)
	v := withNetwork(t, data)
	e := eval.New(v)
	rng := rand.New(rand.NewPCG(6, 6))
	var carried eval.NetState
	other := eval.New(v)
	nonzero := 0
	for game := 0; game < 20; game++ {
		p := v.Start()
		for ply := 0; ply < 120 && !p.Status().Over(); ply++ {
			ms := p.LegalMoves(nil)
			p.Make(ms[rng.IntN(len(ms))])
			var fresh eval.NetState
			want := e.NetScore(p, &fresh)
			if got := e.NetScore(p, &carried); got != want {
				t.Fatalf("game %d ply %d %s: carried state %d, fresh %d", game, ply, p.FEN(), got, want)
			}
			if got := other.Evaluate(p); got != e.Linear(p)+want {
				t.Fatalf("%s: evaluation %d, want %d + %d", p.FEN(), got, e.Linear(p), want)
			}
			if want != 0 {
				nonzero++
			}
		}
	}
	if nonzero == 0 {
		t.Error("the network corrected no position")
	}
}

// TestNetworkClip: the correction stays within the network's clip.
func TestNetworkClip(t *testing.T) {
	_, data := randomNetwork(t, 32, 0.25, 7)
	v := withNetwork(t, data)
	e := eval.New(v)
	rng := rand.New(rand.NewPCG(8, 8))
	p := v.Start()
	for ply := 0; ply < 80 && !p.Status().Over(); ply++ {
		ms := p.LegalMoves(nil)
		p.Make(ms[rng.IntN(len(ms))])
		var st eval.NetState
		if c := e.NetScore(p, &st); c > 100 || c < -100 {
			t.Fatalf("%s: correction %d beyond 0.25 × 400", p.FEN(), c)
		}
	}
}

// TestWithWeightsDropsNetwork: the network corrects the variant's own
// weights; a copy with other weights has none.
func TestWithWeightsDropsNetwork(t *testing.T) {
	_, data := randomNetwork(t, 16, 0, 9)
	v := withNetwork(t, data)
	p, err := v.ParseFEN("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	if err != nil {
		t.Fatal(err)
	}
	var st eval.NetState
	if eval.New(v).NetScore(p, &st) == 0 {
		t.Fatal("the network gives 0 here: pick another position")
	}
	w := v.WithWeights(v.Spec().Weights)
	if w.Spec().Network != nil {
		t.Error("WithWeights kept the network")
	}
	q, err := p.On(w)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := eval.New(w).Evaluate(q), eval.New(v).Linear(p); got != want {
		t.Errorf("with the weights alone: %d, want the evaluation without the network %d", got, want)
	}
}

// TestEvaluateStateAllocs: an evaluation with a network allocates nothing.
func TestEvaluateStateAllocs(t *testing.T) {
	_, data := randomNetwork(t, 128, 0, 10)
	v := withNetwork(t, data)
	e := eval.New(v)
	p := v.Start()
	var st eval.NetState
	ms := p.LegalMoves(nil)
	i := 0
	allocs := testing.AllocsPerRun(100, func() {
		p.Make(ms[i%len(ms)])
		e.EvaluateState(p, &st)
		p.Unmake()
		i++
	})
	if allocs > 0 {
		t.Errorf("%v allocations an evaluation", allocs)
	}
}

// TestNetworkOfVariants: chess and Chess960, built on chess's rules and
// weights, carry chess's network; Vazir, built on chess's rules with
// weights of its own, does not.
func TestNetworkOfVariants(t *testing.T) {
	reg := catalog.MustDefault()
	for _, tc := range []struct {
		name string
		has  bool
	}{{"chess", true}, {"chess960", true}, {"vazir", false}, {"greatshatranj", false}} {
		v, err := reg.Get(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(v.Spec().Network) > 0; got != tc.has {
			t.Errorf("%s carries a network: %v, want %v", tc.name, got, tc.has)
		}
	}
}

// flip returns the FEN of chess position fen with the colours swapped:
// the board turned upside down, each piece the other side's, the other
// side to move.
func flip(fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	slices.Reverse(ranks)
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case unicode.IsUpper(r):
				return unicode.ToLower(r)
			case unicode.IsLower(r):
				return unicode.ToUpper(r)
			}
			return r
		}, s)
	}
	f[0] = swap(strings.Join(ranks, "/"))
	f[1] = map[string]string{"w": "b", "b": "w"}[f[1]]
	if f[2] != "-" {
		f[2] = swap(f[2])
	}
	if f[3] != "-" {
		f[3] = f[3][:1] + map[byte]string{'3': "6", '6': "3"}[f[3][1]]
	}
	return strings.Join(f, " ")
}

// TestNetworkSymmetry: the network sees the position from the side to
// move: the same position with the colours swapped gets the same
// correction, and so does a lone king's side none.
func TestNetworkSymmetry(t *testing.T) {
	_, data := randomNetwork(t, 32, 0, 11)
	v := withNetwork(t, data)
	e := eval.New(v)
	rng := rand.New(rand.NewPCG(12, 12))
	for game := 0; game < 10; game++ {
		p := v.Start()
		for ply := 0; ply < 80 && !p.Status().Over(); ply++ {
			ms := p.LegalMoves(nil)
			p.Make(ms[rng.IntN(len(ms))])
			q, err := v.ParseFEN(flip(p.FEN()))
			if err != nil {
				t.Fatal(err)
			}
			var s1, s2 eval.NetState
			if a, b := e.NetScore(p, &s1), e.NetScore(q, &s2); a != b {
				t.Fatalf("%s: %d, with the colours swapped (%s) %d", p.FEN(), a, q.FEN(), b)
			}
		}
	}
	lone, err := v.ParseFEN("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if eval.NetCorrects(lone) || eval.New(v).Evaluate(lone) != e.Linear(lone) {
		t.Error("the network corrects a lone king's position")
	}
}
