package ai

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant/csipgs"
)

// maxTypes is the number of csipgs piece types (one a letter).
const maxTypes = 26

// floor is the share of a type's probability spread evenly over every
// unseen empty square, so that a square the belief rules out (wrongly,
// when the opponent's moves were not what it assumed) keeps a chance.
const floor = 0.05

// belief is what the engine remembers, from the views it was given alone,
// of where the opponent's unseen pieces may stand in a moderated game: by
// piece type, the expected number of the opponent's unseen pieces of that
// type on each square (mass). Each turn of the opponent moves one of its
// pieces at most, so a piece last seen on a square most likely still
// stands there, and otherwise on a square its movement reaches from there:
// each opponent turn since the last view keeps the mass of a square with
// probability 1-1/(n+1) (n the opponent's pieces on the board: it may
// buy or transfer instead) and spreads the
// rest evenly over the squares the type's movement reaches from it. The
// squares a later view shows without such a piece lose their mass (the
// piece is not there), and the rest is scaled to the number of the type's
// pieces the view does not show (the public economy tells it). A piece
// the opponent transfers from its reserve (public unless HideEconomy hides
// it) comes onto a square next to one of its royals, so a type whose
// reserve count fell gains mass next to where its royals may stand. The
// start is public: a game seen from its first turns begins with the
// opponent's pieces where the variant's start puts them.
// A type the views tell nothing of has no mass, and its unseen pieces go
// anywhere out of sight, as without a belief.
type belief struct {
	fullmove int    // the fullmove number of the last view taken in (0: none yet)
	key      uint64 // that view's hash: the same view again changes nothing
	viewer   rules.Color
	known    [maxTypes + 1]bool      // mass[t] is what the views tell
	mass     [maxTypes + 1][]float64 // by square: the expected number of unseen pieces of type t there
	seen     [maxTypes + 1]geom.Set  // where the last view showed the opponent's pieces of type t
	pocket   [maxTypes + 1]int       // the opponent's reserve by type in the last view
	mine     [maxTypes + 1]geom.Set  // where the last view showed the viewer's pieces of type t
	owned    [maxTypes + 1]int       // the viewer's pieces of type t then, on the board and in reserve
}

// captors returns, by type, the expected number of the opponent's pieces
// of that type on the squares where it took the viewer's pieces since the
// last view: a square where the last view showed a piece of the viewer's
// and that vw does not see (the viewer sees its own pieces' squares) lost
// it to a capture, or its own piece left it; of those where the belief has
// any of the opponent's pieces, the viewer's pieces lost
// (by the counts of its pieces on the board and in reserve) say how many
// such squares were captures, each alike. The captor stands there still,
// since the capture was the opponent's one action, and is of type t by
// the mass ms[t] there (the types the belief knows); hidden is the
// opponent's unseen pieces by type.
func (b *belief) captors(vw rules.View, ms [maxTypes + 1][]float64, hidden [maxTypes + 1]int) [maxTypes + 1]map[geom.Square]float64 {
	var out [maxTypes + 1]map[geom.Square]float64
	if b.fullmove == 0 {
		return out
	}
	q := vw.Position
	lost := 0
	var now [maxTypes + 1]int
	for _, s := range q.Pieces(vw.Viewer) {
		if t := q.At(s).Type(); t >= 1 && t <= maxTypes {
			now[t]++
		}
	}
	for t := 1; t <= maxTypes; t++ {
		lost += max(0, b.owned[t]-now[t]-q.Pocket(vw.Viewer, rules.Type(t)))
	}
	if lost == 0 {
		return out
	}
	mass := func(s geom.Square) float64 {
		total := 0.0
		for t := 1; t <= maxTypes; t++ {
			if hidden[t] > 0 && ms[t] != nil {
				total += ms[t][s]
			}
		}
		return total
	}
	var where []geom.Square
	for _, s := range q.Variant().Board().Squares() {
		for t := 1; t <= maxTypes; t++ {
			if b.mine[t].Has(s) && !vw.Visible.Has(s) && q.At(s) == rules.Empty && mass(s) > 0 {
				where = append(where, s)
				break
			}
		}
	}
	if len(where) == 0 {
		return out
	}
	w := min(1, float64(lost)/float64(len(where)))
	for _, s := range where {
		total := mass(s)
		for t := 1; t <= maxTypes; t++ {
			if hidden[t] > 0 && ms[t] != nil && ms[t][s] > 0 {
				if out[t] == nil {
					out[t] = map[geom.Square]float64{}
				}
				out[t][s] = min(float64(hidden[t]), w*ms[t][s]/total)
			}
		}
	}
	return out
}

// enemyTurns returns how many turns the opponent of the side to move of
// q has played since the start of the game, if the game began at its
// fullmove 1 with White.
func enemyTurns(q *rules.Position) int {
	n := q.Fullmove() - 1
	if q.Turn() == rules.Black {
		n++ // White has played this fullmove's turn
	}
	return n
}

// hiddenCounts returns, by type, how many of the opponent's pieces on the
// board view vw knows of but does not show (from the public economy), as
// the variant's determinization places them; all 0 if the variant has
// none.
func hiddenCounts(vw rules.View) [maxTypes + 1]int {
	var n [maxTypes + 1]int
	det, ok := vw.Position.Variant().Ext().(rules.Determinizer)
	if !ok {
		return n
	}
	s := det.Determinize(vw, rand.New(rand.NewPCG(0, 0)))
	if s == nil {
		return n
	}
	for _, sq := range s.Pieces(vw.Viewer.Other()) {
		if t := s.At(sq).Type(); !vw.Visible.Has(sq) && t >= 1 && t <= maxTypes {
			n[t]++
		}
	}
	return n
}

// update takes in view vw, a view of the viewer's own at its turn.
func (b *belief) update(vw rules.View) {
	q := vw.Position
	if q == nil {
		return
	}
	if b.fullmove != 0 && (b.viewer != vw.Viewer || q.Fullmove() < b.fullmove) {
		*b = belief{} // another game
	}
	if b.fullmove != 0 && q.Fullmove() == b.fullmove && q.Hash() == b.key {
		return
	}
	them := vw.Viewer.Other()
	steps := q.Fullmove() - b.fullmove
	if b.fullmove == 0 {
		steps = enemyTurns(q)
		b.fromStart(q, them)
	}
	hidden := hiddenCounts(vw)
	pieces := len(q.Pieces(them))
	for _, n := range hidden {
		pieces += n
	}
	move := 1 / float64(pieces+1) // or a buy or transfer that moves none
	// Where the opponent's royals may stand, for its transfers.
	var royals []float64
	for _, td := range csipgs.TypeTable(q) {
		if t := int(td.Letter-'A') + 1; td.Royal {
			if m := b.withSeen(t); m != nil {
				royals = addMass(royals, m)
			}
		}
	}
	var ms [maxTypes + 1][]float64
	for t := 1; t <= maxTypes; t++ {
		pc := rules.MakePiece(them, rules.Type(t))
		m := b.withSeen(t)
		if m != nil {
			var ok bool
			if m, ok = diffuse(q, pc, m, steps, move); !ok {
				b.known[t], b.mass[t] = false, nil
				continue
			}
		}
		if d := b.pocket[t] - q.Pocket(them, rules.Type(t)); d > 0 && royals != nil && steps > 0 {
			// A transfer, in one of the turns since: next to a royal,
			// then moved in the turns after it.
			if n, ok := diffuse(q, pc, beside(q, royals, float64(d)), steps-1, move); ok {
				m = addMass(m, n)
			}
		}
		ms[t] = m
	}
	fixed := b.captors(vw, ms, hidden)
	for t := 1; t <= maxTypes; t++ {
		m := ms[t]
		if m == nil {
			continue
		}
		total, sure := 0.0, 0.0
		for _, s := range q.Variant().Board().Squares() {
			if vw.Visible.Has(s) || q.At(s) != rules.Empty {
				m[s] = 0
			}
			if x, ok := fixed[t][s]; ok {
				m[s] = 0
				sure += x
			}
			total += m[s]
		}
		switch {
		case hidden[t] == 0:
			b.known[t], b.mass[t] = true, make([]float64, geom.Cells)
		case total <= 0 && sure == 0:
			b.known[t], b.mass[t] = false, nil // the views were wrong about it
		default:
			if total > 0 {
				k := max(0, float64(hidden[t])-sure) / total
				for i := range m {
					m[i] *= k
				}
			}
			for s, x := range fixed[t] {
				m[s] = x
			}
			b.known[t], b.mass[t] = true, m
		}
	}
	b.mine, b.owned = [maxTypes + 1]geom.Set{}, [maxTypes + 1]int{}
	for _, s := range q.Pieces(vw.Viewer) {
		if t := q.At(s).Type(); t >= 1 && t <= maxTypes {
			b.mine[t].Add(s)
			b.owned[t]++
		}
	}
	for t := 1; t <= maxTypes; t++ {
		b.owned[t] += q.Pocket(vw.Viewer, rules.Type(t))
	}
	b.seen = [maxTypes + 1]geom.Set{}
	for _, s := range q.Pieces(them) {
		if t := q.At(s).Type(); t >= 1 && t <= maxTypes {
			b.seen[t].Add(s)
		}
	}
	for t := 1; t <= maxTypes; t++ {
		b.pocket[t] = q.Pocket(them, rules.Type(t))
	}
	b.fullmove, b.key, b.viewer = q.Fullmove(), q.Hash(), vw.Viewer
}

// withSeen returns a copy of the mass of type t with one piece on each
// square where the last view showed one, or nil if the views tell nothing
// of the type.
func (b *belief) withSeen(t int) []float64 {
	if !b.known[t] && b.seen[t].Empty() {
		return nil
	}
	m := make([]float64, geom.Cells)
	if b.mass[t] != nil {
		copy(m, b.mass[t])
	}
	for _, s := range b.seen[t].Squares() {
		m[s]++
	}
	return m
}

// addMass returns a with b added square by square (a may be nil).
func addMass(a, b []float64) []float64 {
	if a == nil {
		a = make([]float64, geom.Cells)
	}
	for i, x := range b {
		a[i] += x
	}
	return a
}

// beside returns n pieces spread over the squares of q's board next to
// the mass of royals, each square by the mass of the royals next to it.
func beside(q *rules.Position, royals []float64, n float64) []float64 {
	b := q.Variant().Board()
	out := make([]float64, geom.Cells)
	total := 0.0
	for _, s := range b.Squares() {
		if royals[s] == 0 {
			continue
		}
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				f, k := s.File()+dx, s.Rank()+dy
				if (dx != 0 || dy != 0) && f >= 0 && k >= 0 && f < b.Files && k < b.Ranks {
					out[geom.Sq(f, k)] += royals[s]
					total += royals[s]
				}
			}
		}
	}
	if total > 0 {
		for i := range out {
			out[i] *= n / total
		}
	}
	return out
}

// diffuse returns the mass m after the given number of the opponent's
// turns: in each, a piece pc stays with probability 1-move, else goes to
// one of the squares its movement reaches on q's board (csipgs.Reach),
// each alike. It returns false if q's type table does not know pc's
// movement. The squares are taken in the board's order, so that the sums
// are the same every time.
func diffuse(q *rules.Position, pc rules.Piece, m []float64, steps int, move float64) ([]float64, bool) {
	sqs := q.Variant().Board().Squares()
	if csipgs.DesignOf(q, q.Variant().PieceLetter(pc)) == "" {
		return m, false
	}
	for range steps {
		next := make([]float64, geom.Cells)
		for _, s := range sqs {
			w := m[s]
			if w == 0 {
				continue
			}
			var to []geom.Square
			for _, x := range csipgs.Reach(q, s, pc) {
				if at := q.At(x); at == rules.Empty || at.Color() != pc.Color() {
					to = append(to, x)
				}
			}
			if len(to) == 0 {
				next[s] += w
				continue
			}
			next[s] += w * (1 - move)
			for _, x := range to {
				next[x] += w * move / float64(len(to))
			}
		}
		m = next
	}
	return m, true
}

// fromStart sets the mass of a belief without views before q: the
// opponent's pieces on their squares of the variant's start, if the
// opponent's pieces q shows could stand where they do after the turns
// played since (else the game did not begin there, and nothing is known).
func (b *belief) fromStart(q *rules.Position, them rules.Color) {
	start := q.Variant().Start()
	var region [maxTypes + 1]geom.Set
	var known [maxTypes + 1]bool
	for _, s := range start.Pieces(them) {
		if t := start.At(s).Type(); t >= 1 && t <= maxTypes {
			region[t].Add(s)
			known[t] = true
		}
	}
	steps := enemyTurns(q)
	for _, s := range q.Pieces(them) {
		t := q.At(s).Type()
		if t < 1 || t > maxTypes || !known[t] {
			return
		}
		r, ok := grow(q, q.At(s), region[t], steps)
		if !ok || !r.Has(s) {
			return
		}
	}
	for t := 1; t <= maxTypes; t++ {
		if known[t] {
			b.mass[t] = make([]float64, geom.Cells)
			for _, s := range region[t].Squares() {
				b.mass[t][s] = 1
			}
		}
	}
	b.known = known
}

// grow returns r with every square a piece pc could reach from it in the
// given number of moves (by csipgs.Reach on q's board), or false if q's
// type table does not know pc's movement.
func grow(q *rules.Position, pc rules.Piece, r geom.Set, steps int) (geom.Set, bool) {
	for range steps {
		next := r
		for _, s := range r.Squares() {
			to := csipgs.Reach(q, s, pc)
			if to == nil && csipgs.DesignOf(q, q.Variant().PieceLetter(pc)) == "" {
				return r, false
			}
			for _, x := range to {
				next.Add(x)
			}
		}
		if next == r {
			break // nothing more to reach
		}
		r = next
	}
	return r, true
}

// weights returns, over the squares free, the probability that one
// unseen piece of type t stands on each: its mass there, with floor
// spread evenly, or evenly where the belief knows nothing of t.
func (b *belief) weights(t int, free []geom.Square) []float64 {
	w := make([]float64, len(free))
	if len(free) == 0 {
		return w
	}
	total := 0.0
	if t >= 1 && t <= maxTypes && b.known[t] && b.mass[t] != nil {
		for i, s := range free {
			w[i] = b.mass[t][s]
			total += w[i]
		}
	}
	even := 1 / float64(len(free))
	for i := range w {
		if total > 0 {
			w[i] = (1-floor)*w[i]/total + floor*even
		} else {
			w[i] = even
		}
	}
	return w
}

// draw returns an index of w drawn from rng with probability w[i] / the
// sum of w.
func draw(w []float64, rng *rand.Rand) int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	r := rng.Float64() * total
	for i, x := range w {
		if r < x {
			return i
		}
		r -= x
	}
	return len(w) - 1
}

// unseenFree returns the squares of q's board that view vw does not see
// and q leaves empty, in the board's order.
func unseenFree(q *rules.Position, vw rules.View) []geom.Square {
	var free []geom.Square
	for _, s := range q.Variant().Board().Squares() {
		if !vw.Visible.Has(s) && q.At(s) == rules.Empty {
			free = append(free, s)
		}
	}
	return free
}

// place rearranges sample, a determinization of view vw (the opponent's
// pieces the view does not show put on unseen squares), by the belief:
// each such piece goes to an unseen empty square drawn from rng by the
// belief's probability of its type there.
func (b *belief) place(sample *rules.Position, vw rules.View, rng *rand.Rand) *rules.Position {
	them := vw.Viewer.Other()
	q := sample.Clone()
	var hidden []rules.Piece
	sqs := slices.Clone(q.Pieces(them))
	slices.Sort(sqs)
	for _, s := range sqs {
		if !vw.Visible.Has(s) {
			hidden = append(hidden, q.At(s))
			q.Remove(s)
		}
	}
	free := unseenFree(q, vw)
	for _, pc := range hidden {
		if len(free) == 0 {
			break
		}
		i := draw(b.weights(int(pc.Type()), free), rng)
		q.Put(free[i], pc)
		free = slices.Delete(free, i, i+1)
	}
	return q
}

// risk returns the probability, by the belief, that after m (an action of
// the side to move in q, its view vw's position) one of the opponent's
// pieces can take the mover's royal: 1 if a piece the view shows can, else
// the chance that an unseen piece stands on a square from which its
// movement reaches the royal (the unseen squares taken as empty, the worst
// case for the lines of sliders). hidden is the opponent's unseen pieces by
// type (hiddenCounts). A mover with several royals on the board survives
// the loss of one, and its risk is 0.
func (b *belief) risk(q *rules.Position, vw rules.View, hidden [maxTypes + 1]int, m rules.Move) float64 {
	us, them := vw.Viewer, vw.Viewer.Other()
	r := q.Clone()
	r.Make(m)
	royal := map[rules.Type]bool{}
	for _, td := range csipgs.TypeTable(r) {
		royal[rules.Type(td.Letter-'A'+1)] = td.Royal
	}
	var king geom.Square
	n := 0
	for _, s := range r.Pieces(us) {
		if royal[r.At(s).Type()] {
			king, n = s, n+1
		}
	}
	if n != 1 {
		return 0
	}
	free := unseenFree(r, vw)
	if pass := csipgsPass(r); pass != rules.NoMove {
		// The opponent's pieces the view shows, by the rules.
		r.Make(pass)
		for _, x := range r.LegalMoves(nil) {
			if x.To() == king && csipgs.KindOf(x) == csipgs.PieceMove {
				return 1
			}
		}
	}
	safe := 1.0
	for t := 1; t <= maxTypes; t++ {
		if hidden[t] == 0 {
			continue
		}
		pc := rules.MakePiece(them, rules.Type(t))
		w := b.weights(t, free)
		hit := 0.0
		for i, s := range free {
			if slices.Contains(csipgs.Reach(r, s, pc), king) {
				hit += w[i]
			}
		}
		safe *= math.Pow(max(0, 1-hit), float64(hidden[t]))
	}
	return 1 - safe
}
