package tune

import (
	"fmt"
	"math"
	"strings"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// Data is a sample turned into the evaluation's features: for each
// position the nonzero features (from White's point of view), the part of
// the evaluation no weight scales, and the result.
type Data struct {
	Names  []string  // the weights' names
	Init   []float64 // the weights the fit starts from and is pulled toward
	start  []int     // position i's features are idx/val[start[i]:start[i+1]]
	idx    []int32
	val    []float32
	Offset []float64
	Result []float64
	// Label holds each position's score by a search (centipawns, for
	// White), NaN where it has none; nil if no position has one.
	Label []float64
}

// Len returns the number of positions.
func (d *Data) Len() int { return len(d.Result) }

// Add appends a position given by its dense feature vector.
func (d *Data) Add(features []float64, offset, result float64) {
	if len(d.start) == 0 {
		d.start = append(d.start, 0)
	}
	for j, x := range features {
		if x != 0 {
			d.idx = append(d.idx, int32(j))
			d.val = append(d.val, float32(x))
		}
	}
	d.start = append(d.start, len(d.idx))
	d.Offset = append(d.Offset, offset)
	d.Result = append(d.Result, result)
}

// Features turns the positions of a sample of v into Data, starting from
// the weights v carries (the hand-set ones if none).
func Features(v *rules.Variant, ps []Position) (*Data, error) {
	return FeaturesFrom(v, v.Spec().Weights, ps)
}

// FeaturesFrom is Features starting from the weights w instead: each
// weight w names replaces the hand-set one (as eval.NewWeights).
func FeaturesFrom(v *rules.Variant, w map[string]float64, ps []Position) (*Data, error) {
	e := eval.NewWeights(v, w)
	d := &Data{Names: eval.Names(v), Init: e.Weights()}
	f := make([]float64, len(d.Names))
	for _, sp := range ps {
		p, err := v.ParseFEN(sp.FEN)
		if err != nil {
			return nil, fmt.Errorf("tune: game %d: %w", sp.Game, err)
		}
		off := e.Features(p, f)
		d.Add(f, off, sp.Result)
		if sp.Scored {
			if d.Label == nil {
				d.Label = make([]float64, d.Len()-1, len(ps))
				for i := range d.Label {
					d.Label[i] = math.NaN()
				}
			}
			d.Label = append(d.Label, sp.Score)
		} else if d.Label != nil {
			d.Label = append(d.Label, math.NaN())
		}
	}
	return d, nil
}

// Blend returns d with each position's result replaced by the target
// lambda·R + (1-lambda)·sigmoid(L, k), where R is the game's result and L
// the search's score of the position: the result alone with lambda 1, the
// search's expected score alone with 0. It shares d's features; a
// position without a score is an error unless lambda is 1.
func (d *Data) Blend(k, lambda float64) (*Data, error) {
	if math.IsNaN(lambda) || lambda < 0 || lambda > 1 {
		return nil, fmt.Errorf("tune: lambda must be in [0, 1], got %v", lambda)
	}
	if d.Label != nil && len(d.Label) != d.Len() {
		return nil, fmt.Errorf("tune: %d search scores for %d positions", len(d.Label), d.Len())
	}
	out := *d
	if lambda == 1 {
		return &out, nil
	}
	out.Result = make([]float64, d.Len())
	for i, r := range d.Result {
		if d.Label == nil || math.IsNaN(d.Label[i]) {
			return nil, fmt.Errorf("tune: position %d has no search score to blend (label the sample first)", i)
		}
		out.Result[i] = lambda*r + (1-lambda)*sigmoid(d.Label[i], k)
	}
	return &out, nil
}

// score returns the evaluation of position i with weights w.
func (d *Data) score(i int, w []float64) float64 {
	s := d.Offset[i]
	for k := d.start[i]; k < d.start[i+1]; k++ {
		s += w[d.idx[k]] * float64(d.val[k])
	}
	return s
}

// sigmoid maps an evaluation in centipawns to an expected score with the
// scale k: 1/(1+10^(-k*s/400)).
func sigmoid(s, k float64) float64 { return 1 / (1 + math.Exp(-k*s*(math.Ln10/400))) }

// Loss returns the mean squared error of the expected scores of the
// evaluation with weights w, scale k, against the results.
func (d *Data) Loss(w []float64, k float64) float64 {
	if d.Len() == 0 {
		return 0
	}
	sum := 0.0
	for i := range d.Result {
		e := d.Result[i] - sigmoid(d.score(i, w), k)
		sum += e * e
	}
	return sum / float64(d.Len())
}

// FitK returns the scale K in [0.01, 10] that minimises the loss with
// weights w (golden-section search).
func (d *Data) FitK(w []float64) float64 {
	return minimiseK(func(k float64) float64 { return d.Loss(w, k) })
}

// FitLabelK returns the scale K in [0.01, 10] with which the search
// scores (Label) best predict the results: the K that turns another
// engine's scores, on a scale of its own, into expected scores of these
// games. Positions without a score are left out; without any it is 1.
func (d *Data) FitLabelK() float64 {
	if d.Label == nil {
		return 1
	}
	loss := func(k float64) float64 {
		sum, n := 0.0, 0
		for i, s := range d.Label {
			if math.IsNaN(s) {
				continue
			}
			e := d.Result[i] - sigmoid(s, k)
			sum += e * e
			n++
		}
		return sum / float64(max(n, 1))
	}
	return minimiseK(loss)
}

// minimiseK returns the K in [0.01, 10] where loss is lowest
// (golden-section search on log K).
func minimiseK(loss func(k float64) float64) float64 {
	lo, hi := math.Log(0.01), math.Log(10)
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := loss(math.Exp(a)), loss(math.Exp(b))
	for range 60 {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = loss(math.Exp(a))
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = loss(math.Exp(b))
		}
	}
	return math.Exp((lo + hi) / 2)
}

// FitConfig sets the gradient descent.
type FitConfig struct {
	Iterations int       // full passes over the data (1000 if 0)
	Steps      []float64 // each weight's step size (required, e.g. DefaultSteps); 0 keeps the weight fixed
	L2         float64   // pull toward Init: L2 times the squared change, in units of the step
	K          float64   // the curve's scale; 0 fits it to Init first
	// Valid, if not nil, holds positions of games outside the fit: their
	// loss is measured at the start and every tenth iteration, and the fit
	// returns the weights where it was lowest (Init if no step lowered
	// it), so that it stops before it learns the noise of its own games.
	Valid    *Data
	Progress func(iteration int, loss float64)
}

// DefaultSteps returns the step sizes for the evaluation's weights by name:
// values in centipawns, per-square weights in half centipawns, the scales
// of hand-set tables in hundredths, and
// the mop-up weights and royal values fixed (the sample rarely shows them).
// Every weight of a placeholder type, whose hand-set value is below
// placeholderValue (a hook values its pieces, as csipgs's designs), stays
// fixed too: a letter says nothing of the piece.
func DefaultSteps(v *rules.Variant, names []string) []float64 {
	royal := map[string]bool{}
	placeholder := map[string]bool{}
	def := eval.Defaults(v)
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		l := string(v.PieceSpec(t).Letter)
		if v.PieceSpec(t).Royal {
			royal[l] = true
		}
		if x, ok := def[l+".value.mg"]; ok && x > 0 && x < placeholderValue {
			placeholder[l] = true
		}
	}
	steps := make([]float64, len(names))
	for i, n := range names {
		first, _, _ := strings.Cut(n, ".")
		switch {
		case strings.HasPrefix(n, "mopup."), placeholder[first]:
			steps[i] = 0
		case strings.Contains(n, ".value."):
			if !royal[first] {
				steps[i] = 1
			}
		case strings.Contains(n, ".table."):
			steps[i] = 0.005
		case strings.Contains(n, ".centre."), strings.Contains(n, ".advance."):
			steps[i] = 0.1
		case strings.Contains(n, ".square."):
			steps[i] = 0.5
		default:
			steps[i] = 0.25
		}
	}
	return steps
}

// Fix sets to 0 the steps of the weights whose name contains one of the
// parts (empty parts are ignored), so that a fit keeps them at their start.
func Fix(names []string, steps []float64, parts []string) {
	for i, n := range names {
		for _, p := range parts {
			if p != "" && strings.Contains(n, p) {
				steps[i] = 0
			}
		}
	}
}

// placeholderValue bounds the hand-set value of a placeholder type.
const placeholderValue = 10

// FitResult is the outcome of Fit.
type FitResult struct {
	Weights      []float64
	K            float64
	Before, Loss float64 // the loss with Init and with Weights
	// With FitConfig.Valid: the iteration whose weights were returned (0:
	// Init) and the loss of the validation positions with Init and with
	// Weights.
	Iteration               int
	ValidBefore, ValidAfter float64
}

// Fit minimises the loss over the weights by Adam's gradient descent, each
// weight's step shrinking from its size to a tenth over the iterations.
func Fit(d *Data, c FitConfig) (FitResult, error) {
	n := len(d.Init)
	if c.Iterations == 0 {
		c.Iterations = 1000
	}
	if c.Steps == nil {
		return FitResult{}, fmt.Errorf("tune: no step sizes")
	}
	if len(c.Steps) != n {
		return FitResult{}, fmt.Errorf("tune: %d step sizes for %d weights", len(c.Steps), n)
	}
	if d.Len() == 0 {
		return FitResult{}, fmt.Errorf("tune: no positions to fit")
	}
	w := append([]float64(nil), d.Init...)
	k := c.K
	if k == 0 {
		k = d.FitK(w)
	}
	res := FitResult{K: k, Before: d.Loss(w, k)}
	var best []float64
	if c.Valid != nil {
		res.ValidBefore = c.Valid.Loss(w, k)
		res.ValidAfter = res.ValidBefore
		best = append([]float64(nil), w...)
	}
	const b1, b2, eps = 0.9, 0.999, 1e-12
	m, s, grad := make([]float64, n), make([]float64, n), make([]float64, n)
	scale := k * math.Ln10 / 400
	for it := 1; it <= c.Iterations; it++ {
		clear(grad)
		for i := range d.Result {
			p := sigmoid(d.score(i, w), k)
			g := -2 * (d.Result[i] - p) * p * (1 - p) * scale
			for j := d.start[i]; j < d.start[i+1]; j++ {
				grad[d.idx[j]] += g * float64(d.val[j])
			}
		}
		frac := float64(it-1) / float64(max(1, c.Iterations-1))
		rate := 0.1 + 0.9*0.5*(1+math.Cos(math.Pi*frac))
		for j := range w {
			if c.Steps[j] == 0 {
				continue
			}
			gj := grad[j] / float64(d.Len())
			if c.L2 > 0 {
				dj := (w[j] - d.Init[j]) / c.Steps[j]
				gj += 2 * c.L2 * dj / c.Steps[j]
			}
			m[j] = b1*m[j] + (1-b1)*gj
			s[j] = b2*s[j] + (1-b2)*gj*gj
			mh := m[j] / (1 - math.Pow(b1, float64(it)))
			sh := s[j] / (1 - math.Pow(b2, float64(it)))
			w[j] -= c.Steps[j] * rate * mh / (math.Sqrt(sh) + eps)
		}
		if c.Valid != nil && (it%10 == 0 || it == c.Iterations) {
			if l := c.Valid.Loss(w, k); l < res.ValidAfter {
				res.ValidAfter, res.Iteration = l, it
				copy(best, w)
			}
		}
		if c.Progress != nil && (it%100 == 0 || it == c.Iterations) {
			c.Progress(it, d.Loss(w, k))
		}
	}
	if c.Valid != nil {
		w = best
	} else {
		res.Iteration = c.Iterations
	}
	res.Weights = w
	res.Loss = d.Loss(w, k)
	return res, nil
}

// Written returns the weights a fit writes to its file, by name: those it
// fitted (a step above 0) and every other weight of w that is not v's
// hand-set one, so that a weight kept fixed at a learned start is not
// lost when the file is written again. A per-square table is written
// whole if any of its squares is (a file holds a table whole or not at
// all).
func Written(v *rules.Variant, names []string, w, steps []float64) map[string]float64 {
	def := eval.Defaults(v)
	out := map[string]float64{}
	tables := map[string]bool{}
	for j, n := range names {
		x := math.Round(w[j]*100) / 100
		if steps[j] != 0 || x != def[n] {
			out[n] = x
			if t, ok := squareTable(n); ok {
				tables[t] = true
			}
		}
	}
	for j, n := range names {
		if t, ok := squareTable(n); ok && tables[t] {
			out[n] = math.Round(w[j]*100) / 100
		}
	}
	return out
}

// squareTable returns the table (as "N.square.mg") of a per-square
// weight's name, or false.
func squareTable(name string) (string, bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 || !strings.Contains(name[:i], ".square.") {
		return "", false
	}
	return name[:i], true
}
