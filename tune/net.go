package tune

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
)

// A network's sample is a text file of positions and scores, one a line:
// the position's FEN, ";", and the teacher's score in centipawns for the
// side to move. A line "# game N" closes the N-th game (from 1), so that
// an interrupted sample is resumed after its last whole game.

// NetPlayer is the teacher of a network's sample: an engine that plays
// its own games and scores each position it plays in.
type NetPlayer interface {
	// NewGame is called before each game.
	NewGame(ctx context.Context) error
	// Play searches p and returns its best move and its score for the
	// side to move: centipawns if mate is 0, else a mate in mate moves
	// (positive: the side to move mates).
	Play(ctx context.Context, p *rules.Position) (m rules.Move, cp, mate int, err error)
}

// NetSampleConfig says how to play a network's sample.
type NetSampleConfig struct {
	Games  int     // games in the sample
	Seed   uint64  // the random plies' and moves' seed
	Random int     // plies of random moves at the start of each game
	Stray  float64 // the share of later moves played at random instead of the teacher's
	// Bound ends a game whose score is beyond it (centipawns), or a mate
	// (0: 2000).
	Bound    int
	MaxPlies int // a game ends after this many plies (0: 400)
	// Ahead bounds the games handed to the teachers beyond the first not
	// yet written, so that a slow teacher's game keeps at most that many
	// of the others' waiting in memory (0: four a teacher).
	Ahead int
	// Progress, if not nil, is called after each game with the games and
	// positions written.
	Progress func(games, positions int)
}

// NetSample plays cfg.Games games of v with the teachers pls from v's
// start, each after cfg.Random random plies, and writes to the file at path
// each position the teacher plays in that is not in check and whose move it
// chooses is not a capture or a promotion, with its score. Each teacher
// plays one game at a time, all of them at once; the games are written in
// their order. A sample file that exists is continued after its last whole
// game. The games are the same for the same teacher, seed and
// configuration, whatever the number of teachers.
func NetSample(ctx context.Context, v *rules.Variant, pls []NetPlayer, cfg NetSampleConfig, path string) error {
	if len(pls) == 0 {
		return errors.New("tune: a network's sample needs a teacher")
	}
	if cfg.Bound <= 0 {
		cfg.Bound = 2000
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = 400
	}
	if cfg.Ahead <= 0 {
		cfg.Ahead = 4 * len(pls)
	}
	done, size, positions, err := netSampleDone(path)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		return err
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		g, positions int
		text         []byte
		err          error
	}
	// room holds a token for each game that may be handed out: the
	// writer gives one back for each game written.
	room := make(chan struct{}, cfg.Ahead)
	for range cfg.Ahead {
		room <- struct{}{}
	}
	next := make(chan int)
	go func() {
		defer close(next)
		for g := done; g < cfg.Games; g++ {
			select {
			case <-room:
			case <-ctx.Done():
				return
			}
			select {
			case next <- g:
			case <-ctx.Done():
				return
			}
		}
	}()
	results := make(chan result)
	var wg sync.WaitGroup
	for _, pl := range pls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				var b bytes.Buffer
				n, err := netGame(ctx, v, pl, cfg, g, &b)
				select {
				case results <- result{g, n, b.Bytes(), err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	// Write the games in their order: a game played early waits in
	// memory for those before it, at most cfg.Ahead of them.
	pending := map[int]result{}
	g := done
	var first error
	for r := range results {
		if first != nil {
			continue
		}
		if r.err != nil {
			first = r.err
			cancel()
			continue
		}
		pending[r.g] = r
		for x, ok := pending[g]; ok; x, ok = pending[g] {
			delete(pending, g)
			if _, err := f.Write(x.text); err != nil {
				first = err
				cancel()
				break
			}
			positions += x.positions
			g++
			room <- struct{}{}
			if cfg.Progress != nil {
				cfg.Progress(g, positions)
			}
		}
	}
	if first == nil && g < cfg.Games {
		first = ctx.Err() // ctx was cancelled by its caller
	}
	return first
}

// netGame plays the sample's game g (from 0) with the teacher pl and
// writes its lines to w; it returns the positions written.
func netGame(ctx context.Context, v *rules.Variant, pl NetPlayer, cfg NetSampleConfig, g int, w io.Writer) (int, error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(g))) // a game's own stream: a resumed sample is the same
	p := v.Start()
	if err := pl.NewGame(ctx); err != nil {
		return 0, err
	}
	positions := 0
	var ms []rules.Move
	for ply := 0; ply < cfg.MaxPlies && !p.Status().Over(); ply++ {
		ms = p.LegalMoves(ms[:0])
		if len(ms) == 0 {
			break
		}
		if ply < cfg.Random {
			p.Make(ms[rng.IntN(len(ms))])
			continue
		}
		fen := p.FEN()
		m, cp, mate, err := pl.Play(ctx, p)
		if err != nil {
			return 0, err
		}
		if mate != 0 || cp > cfg.Bound || cp < -cfg.Bound {
			break
		}
		if !p.InCheck() && !p.IsCapture(m) && m.Kind() != rules.Promotion {
			fmt.Fprintf(w, "%s;%d\n", fen, cp)
			positions++
		}
		if rng.Float64() < cfg.Stray {
			m = ms[rng.IntN(len(ms))]
		}
		p.Make(m)
	}
	fmt.Fprintf(w, "# game %d\n", g+1)
	return positions, nil
}

// netSampleDone returns the whole games of the sample file at path (0 if
// there is none), the size of its text up to the last of them, and their
// positions.
func netSampleDone(path string) (games int, size int64, positions int, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, 0, nil
	}
	if err != nil {
		return 0, 0, 0, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var at int64
	n := 0
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF {
			return games, size, positions, nil
		}
		if err != nil {
			return 0, 0, 0, err
		}
		at += int64(len(line))
		if g, ok := strings.CutPrefix(line, "# game "); ok {
			k, err := strconv.Atoi(strings.TrimSpace(g))
			if err != nil || k != games+1 {
				return 0, 0, 0, fmt.Errorf("%s: %q where game %d should end", path, strings.TrimSpace(line), games+1)
			}
			games, size, positions = k, at, n
			continue
		}
		n++
	}
}

// NetPosition is one position of a network's sample, ready to train on.
type NetPosition struct {
	Black  bool     // Black is to move
	Pieces []uint16 // each piece as (colour × letters + letter) × squares + square, the square rank × files + file
	Linear float32  // the evaluation's score for the side to move, in units of 400 centipawns
	Target float32  // the teacher's expected score for the side to move: sigmoid(score / 400)
}

// MaxNetLine bounds a line of a network's sample.
const MaxNetLine = 4096

// ReadNetSample reads a network's sample of positions of v (NetSample)
// for networks shaped as n: each position's pieces, the score linear
// gives it (the evaluation the network corrects, for the side to move),
// and the teacher's score; a position the network does not correct
// (eval.NetCorrects: a lone king) is left out. A network that does not
// fit v (eval.Network.TypesOf) is an error, and so is a line that is not
// "FEN;score" or a position v cannot read, naming its line.
func ReadNetSample(r io.Reader, v *rules.Variant, n *eval.Network, linear func(*rules.Position) int) ([]NetPosition, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1024), MaxNetLine)
	letter, err := n.TypesOf(v)
	if err != nil {
		return nil, err
	}
	var out []NetPosition
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fen, score, ok := strings.Cut(text, ";")
		if !ok {
			return nil, fmt.Errorf("line %d: %q is not FEN;score", line, text)
		}
		cp, err := strconv.Atoi(score)
		if err != nil || cp < -100000 || cp > 100000 {
			return nil, fmt.Errorf("line %d: score %q", line, score)
		}
		p, err := v.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if !eval.NetCorrects(p) {
			continue // a lone king: the network is not asked
		}
		np := NetPosition{Black: p.Turn() == rules.Black}
		for c := rules.White; c <= rules.Black; c++ {
			for _, s := range p.Pieces(c) {
				t := int(letter[p.At(s).Type()])
				np.Pieces = append(np.Pieces, uint16((int(c)*len(n.Letters)+t)*n.Files*n.Ranks+s.Rank()*n.Files+s.File()))
			}
		}
		np.Linear = float32(linear(p)) / 400
		np.Target = float32(1 / (1 + math.Exp(-float64(cp)/400)))
		out = append(out, np)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// LinearLoss returns the loss of the evaluation alone (no network) on ps:
// the mean squared error of sigmoid(Linear) against the Target.
func LinearLoss(ps []NetPosition) float64 {
	loss := 0.0
	for _, x := range ps {
		d := 1/(1+math.Exp(-float64(x.Linear))) - float64(x.Target)
		loss += d * d
	}
	return loss / float64(len(ps))
}

// NetTrainConfig says how to fit a network.
type NetTrainConfig struct {
	Epochs int     // passes over the training positions
	Rate   float64 // Adam's step size at the start (it falls to 0 along a cosine)
	Batch  int     // positions a step (0: 1024)
	Valid  int     // the last Valid positions are held out to choose the epoch kept
	Seed   uint64  // the start's and the order's seed
	Mirror bool    // also train on each position mirrored left to right (half the time)
	// Progress, if not nil, is called after each epoch with its losses.
	Progress func(epoch int, train, valid float64)
}

// TrainNetwork fits n's weights (its shape kept, its weights drawn anew
// from cfg.Seed) to the positions ps: the prediction sigmoid(Linear + the
// network's output, clipped to ±n.Clip) against the Target, by the mean
// squared error, with Adam. It keeps the weights of the epoch with the
// least loss on the held-out positions and returns that loss.
func TrainNetwork(n *eval.Network, ps []NetPosition, cfg NetTrainConfig) (float64, error) {
	nv := cfg.Valid
	if nv <= 0 || nv >= len(ps) {
		return 0, fmt.Errorf("%d positions held out of %d", nv, len(ps))
	}
	batch := cfg.Batch
	if batch <= 0 {
		batch = 1024
	}
	train, valid := ps[:len(ps)-nv], ps[len(ps)-nv:]
	h := n.Hidden
	rng := rand.New(rand.NewPCG(cfg.Seed, 2))
	for i := range n.W1 {
		n.W1[i] = float32(rng.NormFloat64() * 0.05)
	}
	for i := range n.B1 {
		n.B1[i] = 0.1
	}
	for i := range n.W2 {
		n.W2[i] = float32(rng.NormFloat64() * 0.1)
	}
	n.B2 = 0
	t := &netTrainer{n: n, h: h, sq: n.Files * n.Ranks, nt: len(n.Letters)}
	t.acc = [2][]float32{make([]float32, h), make([]float32, h)}
	t.ga = make([]float32, h)
	params := [][]float32{n.W1, n.B1, n.W2, make([]float32, 1)}
	grads := make([][]float32, len(params))
	m1 := make([][]float32, len(params))
	m2 := make([][]float32, len(params))
	for i, p := range params {
		grads[i], m1[i], m2[i] = make([]float32, len(p)), make([]float32, len(p)), make([]float32, len(p))
	}
	best := math.Inf(1)
	bestW := [][]float32{append([]float32(nil), n.W1...), append([]float32(nil), n.B1...), append([]float32(nil), n.W2...), {0}}
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	step := 0
	const b1, b2, eps = 0.9, 0.999, 1e-8
	for ep := 1; ep <= cfg.Epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		rate := cfg.Rate * 0.5 * (1 + math.Cos(math.Pi*float64(ep-1)/float64(cfg.Epochs)))
		total := 0.0
		for at := 0; at < len(order); at += batch {
			end := min(at+batch, len(order))
			params[3][0] = n.B2
			for _, k := range order[at:end] {
				mirror := cfg.Mirror && rng.IntN(2) == 0
				total += t.backward(&train[k], mirror, float32(end-at), grads)
			}
			step++
			lr := float32(rate * math.Sqrt(1-math.Pow(b2, float64(step))) / (1 - math.Pow(b1, float64(step))))
			for i, p := range params {
				g, a, b := grads[i], m1[i], m2[i]
				for j := range p {
					a[j] = b1*a[j] + (1-b1)*g[j]
					b[j] = b2*b[j] + (1-b2)*g[j]*g[j]
					p[j] -= lr * a[j] / (float32(math.Sqrt(float64(b[j]))) + eps)
					g[j] = 0
				}
			}
			n.B2 = params[3][0]
		}
		loss := 0.0
		for i := range valid {
			d := t.predict(&valid[i], false) - valid[i].Target
			loss += float64(d * d)
		}
		loss /= float64(len(valid))
		if cfg.Progress != nil {
			cfg.Progress(ep, total/float64(len(train)), loss)
		}
		if loss < best {
			best = loss
			copy(bestW[0], n.W1)
			copy(bestW[1], n.B1)
			copy(bestW[2], n.W2)
			bestW[3][0] = n.B2
		}
	}
	copy(n.W1, bestW[0])
	copy(n.B1, bestW[1])
	copy(n.W2, bestW[2])
	n.B2 = bestW[3][0]
	n.Quantize()
	return best, nil
}

// netTrainer holds a network's sums while training it.
type netTrainer struct {
	n         *eval.Network
	h, sq, nt int
	acc       [2][]float32
	feat      [2][]int
	ga        []float32 // the gradient by hidden unit
}

// forward computes the hidden sums of position x (mirrored left to right
// if mirror) and returns the network's output, unclipped.
func (t *netTrainer) forward(x *NetPosition, mirror bool) float32 {
	n, h := t.n, t.h
	for view := range 2 {
		copy(t.acc[view], n.B1)
		t.feat[view] = t.feat[view][:0]
		for _, code := range x.Pieces {
			pc, s := int(code)/t.sq, int(code)%t.sq
			f, k := s%n.Files, s/n.Files
			if mirror {
				f = n.Files - 1 - f
			}
			i := n.Feature(rules.Color(view), rules.Color(pc/t.nt), pc%t.nt, f, k)
			t.feat[view] = append(t.feat[view], i)
			row := n.W1[i*h : i*h+h]
			a := t.acc[view]
			for j := range a {
				a[j] += row[j]
			}
		}
	}
	us := 0
	if x.Black {
		us = 1
	}
	o := n.B2
	for j := 0; j < h; j++ {
		o += n.W2[j]*clamp01(t.acc[us][j]) + n.W2[h+j]*clamp01(t.acc[1-us][j])
	}
	return o
}

func clamp01(x float32) float32 { return min(max(x, 0), 1) }

// predict returns the expected score the network with the evaluation
// gives x.
func (t *netTrainer) predict(x *NetPosition, mirror bool) float32 {
	o := t.forward(x, mirror)
	if c := t.n.Clip; c > 0 {
		o = min(max(o, -c), c)
	}
	return float32(1 / (1 + math.Exp(-float64(x.Linear+o))))
}

// backward adds the gradient of x's loss, divided by size, to grads (W1,
// B1, W2, B2) and returns the loss.
func (t *netTrainer) backward(x *NetPosition, mirror bool, size float32, grads [][]float32) float64 {
	n, h := t.n, t.h
	o := t.forward(x, mirror)
	clipped := false
	if c := n.Clip; c > 0 && (o >= c || o <= -c) {
		o, clipped = min(max(o, -c), c), true
	}
	y := float32(1 / (1 + math.Exp(-float64(x.Linear+o))))
	d := y - x.Target
	if clipped {
		return float64(d * d)
	}
	g := 2 * d * y * (1 - y) / size
	grads[3][0] += g
	us := 0
	if x.Black {
		us = 1
	}
	for view := range 2 {
		off := 0
		if view != us {
			off = h
		}
		a := t.acc[view]
		for j := 0; j < h; j++ {
			grads[2][off+j] += g * clamp01(a[j])
		}
		ga := t.ga[:h]
		for j := 0; j < h; j++ {
			ga[j] = 0
			if a[j] > 0 && a[j] < 1 {
				ga[j] = g * n.W2[off+j]
			}
			grads[1][j] += ga[j]
		}
		for _, i := range t.feat[view] {
			row := grads[0][i*h : i*h+h]
			for j := range row {
				row[j] += ga[j]
			}
		}
	}
	return float64(d * d)
}

// NetPredict returns the expected score that n with the evaluation gives
// x, as TrainNetwork computes it.
func NetPredict(n *eval.Network, x *NetPosition) float32 {
	t := &netTrainer{n: n, h: n.Hidden, sq: n.Files * n.Ranks, nt: len(n.Letters)}
	t.acc = [2][]float32{make([]float32, n.Hidden), make([]float32, n.Hidden)}
	return t.predict(x, false)
}
