package elofit

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// draw plays g games between players rated a and b: each game is drawn
// with probability drawRate, otherwise won by the first player with the
// probability that keeps its expected score Expected(a, b).
func draw(rng *rand.Rand, p1, p2 string, a, b float64, g int, drawRate float64) Result {
	e := Expected(a, b)
	// A game scores 1 with probability w, 1/2 with drawRate, so that
	// w + drawRate/2 = e; keep w within [0, 1-drawRate].
	d := min(drawRate, 2*e, 2*(1-e))
	w := e - d/2
	r := Result{P1: p1, P2: p2}
	for range g {
		switch u := rng.Float64(); {
		case u < w:
			r.Wins++
		case u < w+d:
			r.Draws++
		default:
			r.Losses++
		}
	}
	return r
}

// chain is a design like the levels' matches: free players a0..a(n-1),
// each playing the next, and each playing a fixed player near it.
func chain(rng *rand.Rand, truth []float64, fixed []float64, games int) Set {
	s := Set{Fixed: map[string]float64{}}
	for i, e := range fixed {
		s.Fixed[fmt.Sprintf("sf%d", i)] = e
	}
	for i, e := range truth {
		if i+1 < len(truth) {
			s.Results = append(s.Results, draw(rng, fmt.Sprintf("a%d", i), fmt.Sprintf("a%d", i+1), e, truth[i+1], games, 0.25))
		}
		// the fixed player nearest to the free one
		best := 0
		for j := range fixed {
			if math.Abs(fixed[j]-e) < math.Abs(fixed[best]-e) {
				best = j
			}
		}
		s.Results = append(s.Results, draw(rng, fmt.Sprintf("a%d", i), fmt.Sprintf("sf%d", best), e, fixed[best], games, 0.1))
	}
	return s
}

// TestFitRecovers: on results drawn from known Elos, each fitted Elo of
// the first draw lies within its interval of the truth, and over 200
// draws the 95% interval holds the truth about 95% of the time.
func TestFitRecovers(t *testing.T) {
	truth := []float64{1250, 1400, 1580, 1700, 1760, 1900}
	fixed := []float64{1350, 1600, 1800, 2000}
	for _, tc := range []struct {
		name  string
		seed  uint64
		games int
	}{
		{"30 games a match", 1, 30},
		{"100 games a match", 2, 100},
		{"1000 games a match", 4, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 7))
			in, all := 0, 0
			for k := range 200 {
				got, err := chain(rng, truth, fixed, tc.games).Fit()
				if err != nil {
					if k > 0 && errors.Is(err, ErrNoMaximum) {
						continue // a perfect score in a draw: no estimate to cover
					}
					t.Fatal(err)
				}
				if len(got) != len(truth) {
					t.Fatalf("%d ratings, want %d: %v", len(got), len(truth), got)
				}
				for i, r := range got {
					if r.Player != fmt.Sprintf("a%d", i) {
						t.Fatalf("rating %d is %s's, want a%d's (sorted by name)", i, r.Player, i)
					}
					if r.Margin <= 0 || r.Margin > 2000/math.Sqrt(float64(tc.games)) {
						t.Errorf("%s: margin %.1f with %d games a match", r.Player, r.Margin, tc.games)
					}
					ok := math.Abs(r.Elo-truth[i]) <= r.Margin
					if k == 0 && !ok {
						t.Errorf("%s: %.0f ± %.0f, truth %.0f outside", r.Player, r.Elo, r.Margin, truth[i])
					}
					all++
					if ok {
						in++
					}
				}
			}
			if c := float64(in) / float64(all); all < 1000 || c < 0.92 || c > 0.98 {
				t.Errorf("the 95%% interval held the truth in %d of %d (%.3f)", in, all, c)
			}
		})
	}
}

// TestFitExact: with one free player against one fixed, the fit is the
// Elo whose expected score is the observed one, and its margin the
// binomial one.
func TestFitExact(t *testing.T) {
	for _, tc := range []struct {
		w, d, l int
	}{
		{20, 0, 10}, {10, 10, 10}, {3, 9, 28}, {1, 0, 99},
	} {
		s := Set{Results: []Result{{P1: "x", P2: "sf", Wins: tc.w, Draws: tc.d, Losses: tc.l}}, Fixed: map[string]float64{"sf": 1500}}
		got, err := s.Fit()
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		g := float64(tc.w + tc.d + tc.l)
		p := (float64(tc.w) + float64(tc.d)/2) / g
		want := 1500 - 400*math.Log10(1/p-1)
		margin := z95 / (eloScale * math.Sqrt(g*p*(1-p)))
		if len(got) != 1 || math.Abs(got[0].Elo-want) > 1e-4 || math.Abs(got[0].Margin-margin) > 1e-4 {
			t.Errorf("%+v: %+v, want Elo %.4f ± %.4f", tc, got, want, margin)
		}
	}
}

// TestFitErrors: results with no finite maximum, or none to fit, are
// refused with a reason.
func TestFitErrors(t *testing.T) {
	fixed := map[string]float64{"sf": 1500}
	for _, tc := range []struct {
		name    string
		s       Set
		want    string
		noMaxim bool
	}{
		{"empty", Set{Fixed: fixed}, "no free player", false},
		{"only fixed players", Set{Results: []Result{{P1: "sf", P2: "sf2", Wins: 1}}, Fixed: map[string]float64{"sf": 1, "sf2": 2}}, "no free player", false},
		{"negative", Set{Results: []Result{{P1: "a", P2: "sf", Wins: -1, Losses: 3}}, Fixed: fixed}, "negative count", false},
		{"itself", Set{Results: []Result{{P1: "a", P2: "a", Wins: 1}}, Fixed: fixed}, "plays itself", false},
		{"won all", Set{Results: []Result{{P1: "a", P2: "sf", Wins: 5}}, Fixed: fixed}, "a won every game", true},
		{"lost all", Set{Results: []Result{{P1: "sf", P2: "a", Wins: 5}}, Fixed: fixed}, "a lost every game", true},
		{"not tied", Set{Results: []Result{{P1: "a", P2: "sf", Wins: 2, Losses: 2}, {P1: "b", P2: "c", Wins: 1, Losses: 1}}, Fixed: fixed}, "b is not tied", true},
		{"no fixed player", Set{Results: []Result{{P1: "b", P2: "c", Wins: 1, Losses: 1}}}, "b is not tied", true},
		{"a group won all", Set{Results: []Result{
			{P1: "a", P2: "b", Wins: 2, Losses: 2},
			{P1: "a", P2: "sf", Wins: 3},
			{P1: "b", P2: "sf", Wins: 3},
			{P1: "sf", P2: "c", Wins: 2, Losses: 2},
			{P1: "b", P2: "c", Wins: 1},
		}, Fixed: fixed}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.s.Fit()
			if err == nil {
				t.Fatalf("fitted %v", got)
			}
			if !strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrNoMaximum) != tc.noMaxim {
				t.Errorf("error %q, want one with %q (no maximum: %v)", err, tc.want, tc.noMaxim)
			}
		})
	}
}

// TestParse: the text form, and its errors by line.
func TestParse(t *testing.T) {
	s, err := Parse(strings.NewReader("# levels\nfixed sf1350 1350\n\ndepth1 depth2 6 13 21 # seed 201\ndepth3 sf1350 22 2 6\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{{"depth1", "depth2", 6, 13, 21}, {"depth3", "sf1350", 22, 2, 6}}
	if fmt.Sprint(s.Results) != fmt.Sprint(want) || len(s.Fixed) != 1 || s.Fixed["sf1350"] != 1350 {
		t.Errorf("parsed %+v", s)
	}
	for _, tc := range []struct{ text, want string }{
		{"fixed sf\n", "line 1: want \"fixed NAME ELO\""},
		{"fixed sf x\n", "line 1: Elo \"x\" is not a number"},
		{"fixed sf NaN\n", "line 1: Elo \"NaN\" is not a number"},
		{"fixed sf 1\nfixed sf 2\n", "line 2: sf fixed twice"},
		{"a b 1 2\n", "line 1: want \"P1 P2 WINS DRAWS LOSSES\""},
		{"\na b 1 x 3\n", "line 2: count \"x\""},
	} {
		if _, err := Parse(strings.NewReader(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q): error %v, want %q", tc.text, err, tc.want)
		}
	}
}
