// Package elofit places players on an Elo scale from match results: the
// maximum-likelihood fit of all the games at once under the logistic Elo
// model (a draw counts half a win), with some players fixed at a known
// Elo, and the half-width of each free player's 95% interval from the
// curvature of the likelihood at its maximum.
//
// The engine's levels (package level) are placed this way from matches
// against each other and against Stockfish with limited strength, whose
// UCI_Elo settings are the fixed players.
//
// Results are read from text, one match a line:
//
//	# a comment
//	fixed NAME ELO        the player NAME stands at ELO
//	P1 P2 WINS DRAWS LOSSES   a match, counted from P1's side
//
// Everything after a '#' on a line is a comment.
package elofit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Result is one match between two players, counted from P1's side.
type Result struct {
	P1, P2              string
	Wins, Draws, Losses int
}

// Rating is a free player's fitted Elo and the half-width of its 95%
// interval.
type Rating struct {
	Player string
	Elo    float64
	Margin float64
}

// Set is a set of matches and the players with a known Elo.
type Set struct {
	Results []Result
	Fixed   map[string]float64
}

// eloScale turns an Elo difference into a logit: p = 1/(1+10^(-d/400)).
const eloScale = math.Ln10 / 400

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959964

// Expected is the expected score of a player rated a against one rated b.
func Expected(a, b float64) float64 { return 1 / (1 + math.Pow(10, (b-a)/400)) }

// Parse reads a Set from its text form (see the package comment).
func Parse(r io.Reader) (Set, error) {
	s := Set{Fixed: map[string]float64{}}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "fixed":
			if len(f) != 3 {
				return Set{}, fmt.Errorf("line %d: want \"fixed NAME ELO\", got %q", n, line)
			}
			elo, err := strconv.ParseFloat(f[2], 64)
			if err != nil || math.IsNaN(elo) || math.IsInf(elo, 0) {
				return Set{}, fmt.Errorf("line %d: Elo %q is not a number", n, f[2])
			}
			if _, dup := s.Fixed[f[1]]; dup {
				return Set{}, fmt.Errorf("line %d: %s fixed twice", n, f[1])
			}
			s.Fixed[f[1]] = elo
		case len(f) == 5:
			var c [3]int
			for i, v := range f[2:] {
				k, err := strconv.Atoi(v)
				if err != nil {
					return Set{}, fmt.Errorf("line %d: count %q: %w", n, v, err)
				}
				c[i] = k
			}
			s.Results = append(s.Results, Result{P1: f[0], P2: f[1], Wins: c[0], Draws: c[1], Losses: c[2]})
		default:
			return Set{}, fmt.Errorf("line %d: want \"P1 P2 WINS DRAWS LOSSES\" or \"fixed NAME ELO\", got %q", n, line)
		}
	}
	if err := sc.Err(); err != nil {
		return Set{}, fmt.Errorf("reading results: %w", err)
	}
	return s, nil
}

// ErrNoMaximum is returned when the likelihood has no finite maximum: a
// player (or a group of them) won or lost every game against the rest,
// or is not tied to a fixed player by games.
var ErrNoMaximum = errors.New("no finite maximum")

// Fit returns each free player's maximum-likelihood Elo and the
// half-width of its 95% interval, sorted by name. Every free player must
// be tied to a fixed player through the games, and none may have won or
// lost all its games against the others.
func (s Set) Fit() ([]Rating, error) {
	idx := map[string]int{}
	var names []string
	for i, r := range s.Results {
		if r.Wins < 0 || r.Draws < 0 || r.Losses < 0 {
			return nil, fmt.Errorf("match %d (%s - %s): negative count", i+1, r.P1, r.P2)
		}
		if r.P1 == r.P2 {
			return nil, fmt.Errorf("match %d: %s plays itself", i+1, r.P1)
		}
		for _, p := range []string{r.P1, r.P2} {
			if _, fixed := s.Fixed[p]; fixed {
				continue
			}
			if _, ok := idx[p]; !ok {
				idx[p] = 0
				names = append(names, p)
			}
		}
	}
	if len(names) == 0 {
		return nil, errors.New("no free player in the results")
	}
	sort.Strings(names)
	for i, p := range names {
		idx[p] = i
	}
	if err := s.tied(names); err != nil {
		return nil, err
	}
	n := len(names)
	// Start every free player at the mean of the fixed ones.
	start := 0.0
	for _, e := range s.Fixed {
		start += e / float64(len(s.Fixed))
	}
	elo := make([]float64, n)
	for i := range elo {
		elo[i] = start
	}
	rating := func(x []float64, p string) float64 {
		if e, ok := s.Fixed[p]; ok {
			return e
		}
		return x[idx[p]]
	}
	loglik := func(x []float64) float64 {
		l := 0.0
		for _, r := range s.Results {
			g := float64(r.Wins + r.Draws + r.Losses)
			if g == 0 {
				continue
			}
			sc := float64(r.Wins) + float64(r.Draws)/2
			d := (rating(x, r.P1) - rating(x, r.P2)) * eloScale
			// log p = -log(1+e^-d), log(1-p) = -log(1+e^d)
			l -= sc*softplus(-d) + (g-sc)*softplus(d)
		}
		return l
	}
	// Newton's method on the concave log-likelihood, halving a step that
	// does not raise it.
	var h [][]float64
	for iter := 0; ; iter++ {
		if iter == 200 {
			return nil, fmt.Errorf("fit did not converge: %w", ErrNoMaximum)
		}
		grad := make([]float64, n)
		h = hessian(n)
		for _, r := range s.Results {
			g := float64(r.Wins + r.Draws + r.Losses)
			if g == 0 {
				continue
			}
			sc := float64(r.Wins) + float64(r.Draws)/2
			p := Expected(rating(elo, r.P1), rating(elo, r.P2))
			d1 := (sc - g*p) * eloScale
			c := g * p * (1 - p) * eloScale * eloScale
			i, free1 := idx[r.P1]
			j, free2 := idx[r.P2]
			if free1 {
				grad[i] += d1
				h[i][i] += c
			}
			if free2 {
				grad[j] -= d1
				h[j][j] += c
			}
			if free1 && free2 {
				h[i][j] -= c
				h[j][i] -= c
			}
		}
		step, err := solve(h, grad)
		if err != nil {
			return nil, fmt.Errorf("fit: %v: %w", err, ErrNoMaximum)
		}
		big := 0.0
		for _, v := range step {
			big = max(big, math.Abs(v))
		}
		if big < 1e-7 {
			break
		}
		base := loglik(elo)
		next := make([]float64, n)
		for t := 1.0; ; t /= 2 {
			for i := range next {
				next[i] = elo[i] + t*step[i]
			}
			if loglik(next) >= base || t < 1e-9 {
				break
			}
		}
		elo = next
		for _, e := range elo {
			if math.Abs(e-start) > 10000 {
				return nil, fmt.Errorf("fit runs off to an Elo of %.0f: %w", e, ErrNoMaximum)
			}
		}
	}
	cov, err := inverse(h)
	if err != nil {
		return nil, fmt.Errorf("fit: %v: %w", err, ErrNoMaximum)
	}
	out := make([]Rating, n)
	for i, p := range names {
		out[i] = Rating{Player: p, Elo: elo[i], Margin: z95 * math.Sqrt(cov[i][i])}
	}
	return out, nil
}

// tied checks that every free player is tied by games to a fixed player,
// and that no free player has a perfect or a null score against the rest.
func (s Set) tied(names []string) error {
	adj := map[string][]string{}
	score := map[string][2]int{} // points doubled, games doubled
	for _, r := range s.Results {
		g := r.Wins + r.Draws + r.Losses
		if g == 0 {
			continue
		}
		adj[r.P1] = append(adj[r.P1], r.P2)
		adj[r.P2] = append(adj[r.P2], r.P1)
		a, b := score[r.P1], score[r.P2]
		a[0] += 2*r.Wins + r.Draws
		a[1] += 2 * g
		b[0] += 2*r.Losses + r.Draws
		b[1] += 2 * g
		score[r.P1], score[r.P2] = a, b
	}
	seen := map[string]bool{}
	var queue []string
	for p := range s.Fixed {
		seen[p] = true
		queue = append(queue, p)
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range adj[p] {
			if !seen[q] {
				seen[q] = true
				queue = append(queue, q)
			}
		}
	}
	for _, p := range names {
		if !seen[p] {
			return fmt.Errorf("%s is not tied to a fixed player by games: %w", p, ErrNoMaximum)
		}
		switch sc := score[p]; sc[0] {
		case 0:
			return fmt.Errorf("%s lost every game: %w", p, ErrNoMaximum)
		case sc[1]:
			return fmt.Errorf("%s won every game: %w", p, ErrNoMaximum)
		}
	}
	return nil
}

// softplus is log(1+e^x), computed without overflow.
func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

func hessian(n int) [][]float64 {
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
	}
	return h
}

// solve returns x with a·x = b by Gaussian elimination with partial
// pivoting; a and b are left as they were.
func solve(a [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	m := make([][]float64, n)
	for i := range a {
		m[i] = append(append([]float64(nil), a[i]...), b[i])
	}
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-300 {
			return nil, errors.New("singular information matrix")
		}
		m[c], m[p] = m[p], m[c]
		for r := 0; r < n; r++ {
			if r == c {
				continue
			}
			f := m[r][c] / m[c][c]
			for k := c; k <= n; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = m[i][n] / m[i][i]
	}
	return x, nil
}

// inverse returns a's inverse, column by column.
func inverse(a [][]float64) ([][]float64, error) {
	n := len(a)
	inv := hessian(n)
	for j := 0; j < n; j++ {
		e := make([]float64, n)
		e[j] = 1
		col, err := solve(a, e)
		if err != nil {
			return nil, err
		}
		for i := range col {
			inv[i][j] = col[i]
		}
	}
	return inv, nil
}
