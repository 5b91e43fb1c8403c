// Package eval scores positions of any variant defined as data.
//
// Piece values come from each piece's movement: its effective mobility on an
// empty board of the variant's size, averaged over the squares, where a
// rider's k-th step counts 0.7^(k-1) (a long line is often blocked) and a
// move-only or capture-only leg counts 0.6; the value is 62 centipawns per
// unit of mobility, times 0.9 for a colour-bound piece. On 8x8 this gives
// knight 325, bishop 331, rook 502, queen 870. A value in the variant file
// overrides the derived one; the pawn is worth 100.
//
// Piece-square terms come from mobility too: a piece gains for each move it
// has from a square above its average. Pawns gain as they advance toward
// promotion; the king keeps to its own side while there is material on the
// board and walks to the centre in the endgame. When one side has only its
// king left against more, the other is paid for driving that king to the
// edge, bringing its own king near and taking the squares the lone king
// can still reach (the winning side must mate; bare kings and dead
// material are judged by the rules, not here).
//
// In a variant with chance (rules.Variant.Chance) whose pieces carry ranks
// (Vazir: the piece attribute, 0..9), a piece's value also depends on its
// rank. A capture by a piece of rank a of a piece of rank d succeeds with
// probability (a+1)/(a+d+1), and a player has MPT tries a turn (the
// variant's option MPT, 1 if it has none). A piece of rank r that an
// attacker of average rank (a uniform in 0..9) tries to take with all the
// tries of a turn survives with probability s(r), the mean over a of
// (r/(a+r+1))^MPT; it takes 1/(1-s(r)) such turns on average to remove
// it, against one for rank 0. The piece is worth its type's value times
// that durability: with MPT 3 from 1 at rank 0 through 1.16 at rank 4 to
// 1.44 at rank 9 (with MPT 1, 2.83 at rank 9). The same rank also makes
// the piece a better attacker; the search weighs that through the
// outcomes' probabilities.
//
// The evaluation is a linear function of named weights (see Names): the
// piece values by phase, the scale of each type's piece-square table with a
// centre and an advance term, the pawn structure, the king's shelter, the
// tempo and the mop-up, and terms that are 0 (and not computed) until
// learned for a variant: each type's mobility (the squares a piece reaches
// as the board stands, and those of them no enemy pawn attacks), the
// attack on the enemy king (the squares next to it that pieces reach) and
// the safe checks (king.go), the pair of a colour-bound type on both
// square colours (the bishop pair), file riders (rooks, queens) on open
// and half-open files, the threats (an enemy piece attacked by a pawn, by a
// piece worth less, or attacked and not defended), pawns side by side and
// defended by a pawn, passed pawns blocked and the kings' distance to the
// square in front of them (terms.go), and a table per type and phase of
// a weight for each square, seen from the owner's side with the files
// mirrored, added to the piece-square terms (folded into the evaluator's
// piece-square tables when it is built, so they cost nothing a position).
// Their defaults give the hand-set evaluation above.
// A variant may carry learned weights in its rules.Spec (Spec.Weights);
// each weight it names replaces the default (docs/tuning.md).
package eval

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/anychess/anychess/betza"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

const (
	riderDiscount = 0.7
	pawnsPerMove  = 62
	colorBound    = 0.9
	modeOnly      = 0.6
	maxRank       = 9 // ranks are 0..maxRank
)

// Evaluator scores positions of one variant. Its weights are immutable
// after New, and it is safe for concurrent use; its state is the cache of
// the scores it gave (cache.go) and the table of the pawn structures it
// met (pawns.go), which never change a score.
type Evaluator struct {
	v       *rules.Variant
	files   int // the board's size
	ranks   int
	words   [2]int                  // the words of a geom.Set that hold the board's squares (boardWords)
	onBoard geom.Set                // the board's squares (not the holes)
	w       []float64               // the weights, indexed as in Names
	value   [rules.MaxTypes + 1]int // middle-game value
	valEg   [rules.MaxTypes + 1]int // endgame value
	split   bool                    // some type's values differ by phase
	royal   [rules.MaxTypes + 1]bool
	pawn    rules.Type
	mg, eg  [2][rules.MaxTypes + 1][geom.Cells]int16 // piece-square bonus by phase
	phase   [rules.MaxTypes + 1]int                  // contribution to the game phase
	full    int                                      // phase of the start position
	center  [geom.Cells]int16                        // distance to the board's centre, in half squares
	ranked  bool                                     // pieces carry ranks (a variant with chance)
	rankV   [rules.MaxTypes + 1][maxRank + 1]int32   // value by type and rank, when ranked
	rankE   [rules.MaxTypes + 1][maxRank + 1]int32   // endgame value by type and rank
	dur     [maxRank + 1]float64                     // durability by rank, when ranked
	shape   [][2][]float64                           // hand-set table by type, phase and square (White's view)
	extra   rules.Engine                             // the variant's Eval, or nil
	net     *Network                                 // the variant's network (Spec.Network), or nil
	netT    *[rules.MaxTypes + 1]int8                // each type's letter in net
	hand    [rules.MaxTypes + 1]int                  // hand-set value by type
	terms   Terms                                    // the variant's own terms, or nil
	termW   []float64                                // their weights
	rankAt  int                                      // index of the weight rank.1
	cache   atomic.Pointer[cache]                    // the scores evaluated, by hash, from the first Evaluate on
	pawns   atomic.Pointer[pawnTable]                // the pawn structures evaluated, by the pawns' key (pawns.go)
	termOn  bool                                     // some term weight is not its default: weigh the terms instead of calling Eval
	sqAt    int                                      // index of the first per-square weight
	sqCells int                                      // weights of one per-square table
	sqIdx   [geom.Cells]int                          // place of a square (White's view) in a per-square table

	// the pawn-structure, king and tempo weights, rounded where the
	// evaluation counts in whole centipawns
	doubled, isolated [2]int
	passed, passedAdv [2]float64
	shelter, tempo    int
	mopEdge, mopNear  int
	mopBox            int // per square the lone royal cannot reach (boxShrink)

	// the piece terms: pairs of colour-bound pieces, file riders on open
	// and half-open files (each on only when a weight is not 0)
	bound          []rules.Type             // the types bound to one square colour
	rider          [rules.MaxTypes + 1]bool // the types that capture along files as riders
	pair           [2]int
	open, half     [2]int
	pairOn, fileOn bool
	// mobility: each type's rays (none for pawns and royals) and weights
	// by phase; mobOn[t] when a weight of t is not 0
	rays   [][2][]ray
	walks  [rules.MaxTypes + 1]bool // the type has rays: mobility walks it
	once   [rules.MaxTypes + 1]bool // the type's rays reach each square at most once (reachesOnce)
	plain  [rules.MaxTypes + 1]bool // each of the type's rays both moves and captures
	mobW   [rules.MaxTypes + 1][2]int
	safeW  [rules.MaxTypes + 1][2]int // L.mobility.safe
	safeOn bool
	mobOn  [rules.MaxTypes + 1]bool
	anyMob bool
	walkOn bool // mobility walks the pieces (for mobility, the attack on the king or the safe checks)
	// the attack on the king: per square next to the enemy king that a
	// piece's capturing rays reach
	att   [2]int
	attOn bool
	// the safe checks by type (king.go)
	chkW   [rules.MaxTypes + 1][2]int
	chkOn  [rules.MaxTypes + 1]bool // a weight of chkW is not 0
	kingOn bool
	// the terms of terms.go: their weights by phase, and the pawn's
	// captures and each type's capturing rays
	termWt   [numTerms][2]int
	termsOn  bool
	hitsOn   bool // the terms or the safe checks need what each side attacks (hits)
	pawnCap  [2][]pawnCapture
	hitRays  [][2][]ray
	lesser   [rules.MaxTypes + 1]uint64        // by attacking type, the types it threatens for threat.lesser (lessers)
	pawnStep bool                              // the pawn's capturing rays are the single steps of pawnCap
	back     [2][]backRay                      // the directions attackedBy walks, by attacking side
	union    [rules.MaxTypes + 1][2]rules.Type // the two types whose capturing rays are a type's together (unions)
	// the leapers' tables (leaps.go): by type and colour the squares a
	// type whose capturing rays are single steps reaches from each square,
	// e.leapNW words from e.leapAt[s]; leapMob[t] when mobility counts on
	// them (mobilityLeaps)
	leap    [rules.MaxTypes + 1][2][]uint64
	leapAt  [geom.Cells]int32
	leapNW  int
	leapDY  [rules.MaxTypes + 1]int // the most ranks a leaper's step crosses
	leapMob [rules.MaxTypes + 1]bool
}

// ray is one direction of a piece's movement for its mobility: the step,
// the most steps, and whether it moves to empty squares and captures.
type ray struct {
	off           int
	steps         int
	move, capture bool
}

// New builds the evaluator of v with the weights v's Spec carries (see
// Names); a weight it does not name keeps its default, and a name that is
// not one of Names(v) is ignored (CheckWeights reports it).
func New(v *rules.Variant) *Evaluator {
	e := NewWeights(v, v.Spec().Weights)
	if n := networkOf(v); n != nil {
		if t, err := n.TypesOf(v); err == nil {
			e.net, e.netT = n, t
		}
	}
	return e
}

// NewWeights builds the evaluator of v with the weights w instead of those
// v carries: each weight w names replaces the default, names that are not
// one of Names(v) are ignored.
func NewWeights(v *rules.Variant, w map[string]float64) *Evaluator {
	e := &Evaluator{v: v, pawn: v.Pawn()}
	e.extra, _ = v.Ext().(rules.Engine)
	e.w = defaults(v)
	names := Names(v)
	for i, n := range names {
		if x, ok := w[n]; ok {
			e.w[i] = x
		}
	}
	e.rankAt = rankBase(v)
	if t := termsOf(v); t != nil {
		e.terms = t
		e.termW = e.w[termBase(v) : termBase(v)+len(t.TermNames())]
		for i, d := range t.TermDefaults() {
			if e.termW[i] != d {
				e.termOn = true
			}
		}
	}
	e.build()
	return e
}

func (e *Evaluator) build() {
	v := e.v
	b := v.Board()
	e.files, e.ranks = b.Files, b.Ranks
	e.words = boardWords(b.Ranks)
	squares := b.Squares()
	cf, cr := float64(b.Files-1)/2, float64(b.Ranks-1)/2
	for _, s := range squares {
		e.onBoard.Add(s)
		dx, dy := abs(float64(s.File())-cf), abs(float64(s.Rank())-cr)
		e.center[s] = int16(2 * max(dx, dy))
	}
	e.shape = make([][2][]float64, v.NumTypes()+1)
	e.sqAt, e.sqCells = squareBase(v), squareCells(b)
	for _, s := range squares {
		e.sqIdx[s] = squareIndex(b, s)
	}
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		ps := v.PieceSpec(t)
		e.royal[t] = ps.Royal
		e.hand[t] = handValue(v, t)
		base := e.w[pieceBase(t):]
		e.value[t] = int(math.Round(base[valueMg]))
		e.valEg[t] = int(math.Round(base[valueEg]))
		if e.valEg[t] != e.value[t] {
			e.split = true
		}
		if t != e.pawn && !ps.Royal {
			// The phase weight stays that of the hand-set value, so that
			// learned values do not move the phase.
			e.phase[t] = max(1, e.hand[t]/100)
		}
		e.shape[t] = handTable(v, t, e.center[:])
		for c := rules.White; c <= rules.Black; c++ {
			for _, s := range squares {
				rel := s // the square as seen by White
				if c == rules.Black {
					rel = b.Rotate(s)
				}
				ctr, adv := float64(e.center[rel]), float64(rel.Rank())
				sq := e.w[e.sqAt+(int(t)-1)*2*e.sqCells+e.sqIdx[rel]:]
				mg := base[tableMg]*e.shape[t][0][rel] + base[centreMg]*ctr + base[advanceMg]*adv + sq[0]
				eg := base[tableEg]*e.shape[t][1][rel] + base[centreEg]*ctr + base[advanceEg]*adv + sq[e.sqCells]
				e.mg[c][t][s], e.eg[c][t][s] = int16(clamp(mg, math.MaxInt16)), int16(clamp(eg, math.MaxInt16))
			}
		}
	}
	if v.Chance() {
		e.ranked = true
		mpt := triesPerTurn(v)
		for r := range e.dur {
			e.dur[r] = durability(r, mpt)
		}
		rw := e.w[e.rankAt:]
		for t := range e.rankV {
			for r := range e.rankV[t] {
				extra := 0.0
				if r > 0 {
					extra = float64(e.hand[t]) * rw[r-1] / 100
				}
				e.rankV[t][r] = int32(math.Round(float64(e.value[t])*e.dur[r] + extra))
				e.rankE[t][r] = int32(math.Round(float64(e.valEg[t])*e.dur[r] + extra))
			}
		}
	}
	g := e.w[globalBase(v):]
	e.doubled = [2]int{roundInt(g[gDoubledMg]), roundInt(g[gDoubledEg])}
	e.isolated = [2]int{roundInt(g[gIsolatedMg]), roundInt(g[gIsolatedEg])}
	e.passed = [2]float64{g[gPassedMg], g[gPassedEg]}
	e.passedAdv = [2]float64{g[gPassedAdvMg], g[gPassedAdvEg]}
	e.shelter = roundInt(g[gShelter])
	e.tempo = roundInt(g[gTempo])
	e.mopEdge, e.mopNear, e.mopBox = roundInt(g[gMopEdge]), roundInt(g[gMopNear]), roundInt(g[gMopBox])
	e.pair = [2]int{roundInt(g[gPairMg]), roundInt(g[gPairEg])}
	e.open = [2]int{roundInt(g[gOpenMg]), roundInt(g[gOpenEg])}
	e.half = [2]int{roundInt(g[gHalfOpenMg]), roundInt(g[gHalfOpenEg])}
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		if t == e.pawn || e.royal[t] {
			continue
		}
		m := v.Movement(t)
		if colourBound(m) {
			e.bound = append(e.bound, t)
		}
		e.rider[t] = fileRider(m)
	}
	e.pairOn = len(e.bound) > 0 && e.pair != [2]int{}
	e.rays = make([][2][]ray, v.NumTypes()+1)
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		if t == e.pawn || e.royal[t] {
			continue
		}
		e.rays[t] = mobilityRays(v.Movement(t))
		e.walks[t] = len(e.rays[t][0]) > 0
		e.once[t] = reachesOnce(e.rays[t][0], b)
		e.plain[t] = !slices.ContainsFunc(e.rays[t][0], func(r ray) bool { return !r.move || !r.capture })
		base := e.w[pieceBase(t):]
		e.mobW[t] = [2]int{roundInt(base[mobilityMg]), roundInt(base[mobilityEg])}
		e.safeW[t] = [2]int{roundInt(base[mobSafeMg]), roundInt(base[mobSafeEg])}
		safe := e.safeW[t] != [2]int{}
		e.safeOn = e.safeOn || (safe && len(e.rays[t][0]) > 0)
		e.mobOn[t] = (e.mobW[t] != [2]int{} || safe) && len(e.rays[t][0]) > 0
		e.anyMob = e.anyMob || e.mobOn[t]
		e.chkW[t] = [2]int{roundInt(base[checkMg]), roundInt(base[checkEg])}
		e.chkOn[t] = e.chkW[t] != [2]int{}
		e.kingOn = e.kingOn || (len(e.rays[t][0]) > 0 && e.chkW[t] != [2]int{})
	}
	e.att = [2]int{roundInt(g[gKingAttMg]), roundInt(g[gKingAttEg])}
	e.attOn = e.att != [2]int{}
	e.walkOn = e.anyMob || e.attOn || e.kingOn
	for i := range e.termWt {
		e.termWt[i] = [2]int{roundInt(g[gTerms+2*i]), roundInt(g[gTerms+2*i+1])}
		e.termsOn = e.termsOn || e.termWt[i] != [2]int{}
	}
	e.hitsOn = e.termsOn || e.kingOn
	e.pawnCap = pawnCaptures(v, e.pawn)
	e.hitRays = make([][2][]ray, v.NumTypes()+1)
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		e.hitRays[t] = hitRays(v.Movement(t))
	}
	e.back = e.backRays()
	e.leapTables()
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		e.leapMob[t] = e.walks[t] && e.plain[t] && e.leap[t][0] != nil
	}
	e.lesser = e.lessers()
	e.union = e.unions()
	e.pawnStep = e.pawn != 0 && !slices.ContainsFunc(e.hitRays[e.pawn][0], func(r ray) bool { return r.steps != 1 })
	e.fileOn = e.pawn != 0 && (e.open != [2]int{} || e.half != [2]int{})
	start := v.Start()
	for c := rules.White; c <= rules.Black; c++ {
		for _, s := range start.Pieces(c) {
			e.full += e.phase[start.At(s).Type()]
		}
	}
	e.full = max(e.full, 1)
}

func roundInt(x float64) int { return int(math.Round(x)) }

// handValue returns the hand-set value of type t: the variant file's, 100
// for the pawn, 0 for a royal piece, else derived from its mobility.
func handValue(v *rules.Variant, t rules.Type) int {
	ps := v.PieceSpec(t)
	switch {
	case ps.Value != 0:
		return ps.Value
	case t == v.Pawn():
		return 100
	case ps.Royal:
		return 0
	}
	_, avg := mobilities(v, t)
	val := avg * pawnsPerMove
	if colourBound(v.Movement(t)) {
		val *= colorBound
	}
	return int(val + 0.5)
}

// mobilities returns type t's mobility on each square of an empty board and
// its average.
func mobilities(v *rules.Variant, t rules.Type) (map[geom.Square]float64, float64) {
	squares := v.Board().Squares()
	mob := make(map[geom.Square]float64, len(squares))
	var sum float64
	for _, s := range squares {
		m := mobility(v, v.Movement(t), s, rules.White)
		mob[s] = m
		sum += m
	}
	return mob, sum / float64(len(squares))
}

// handTable returns type t's hand-set piece-square table for both phases,
// by square as seen by White: pawns gain as they advance, the king keeps
// home in the middle game and goes to the centre in the endgame, other
// pieces gain with their mobility above their average.
func handTable(v *rules.Variant, t rules.Type, center []int16) [2][]float64 {
	tab := [2][]float64{make([]float64, geom.Cells), make([]float64, geom.Cells)}
	mob, avg := mobilities(v, t)
	for _, rel := range v.Board().Squares() {
		var mg, eg float64
		switch {
		case t == v.Pawn():
			mg, eg = pawnBonus(v, rel)
		case v.PieceSpec(t).Royal:
			mg = -12*float64(rel.Rank()) - 3*float64(center[rel])
			eg = -6 * float64(center[rel])
		default:
			d := (mob[rel] - avg) * 3
			mg, eg = clamp(d, 30), clamp(d, 20)
		}
		tab[0][rel], tab[1][rel] = mg, eg
	}
	return tab
}

// triesPerTurn returns the variant's option MPT, or 1.
func triesPerTurn(v *rules.Variant) int {
	for _, o := range v.Options() {
		if o.Name == "MPT" {
			if n, err := strconv.Atoi(o.Value); err == nil && n >= 1 {
				return n
			}
		}
	}
	return 1
}

// durability returns the factor by which a rank scales a piece's value
// with mpt tries a turn (see the package documentation): 1/(1-s) where s
// is the mean over attacker ranks a = 0..9 of (r/(a+r+1))^mpt. It is 1 for
// rank 0 and grows with the rank.
func durability(r, mpt int) float64 {
	r = max(0, min(r, maxRank))
	s := 0.0
	for a := 0; a <= maxRank; a++ {
		s += math.Pow(float64(r)/float64(a+r+1), float64(mpt))
	}
	s /= maxRank + 1
	return 1 / (1 - s)
}

// pawnBonus rewards a pawn for its advance toward promotion (or toward the
// far side when it does not promote).
func pawnBonus(v *rules.Variant, rel geom.Square) (mg, eg float64) {
	b := v.Board()
	last := b.Ranks - 1
	for r := last; r >= 0; r-- {
		if v.PromotionZone(rules.White, geom.Sq(rel.File(), r)) {
			last = r
		} else {
			break
		}
	}
	start := 1
	f := float64(rel.Rank()-start) / float64(max(1, last-start))
	f = max(0, min(1, f))
	mg = 40*f*f*f + 8*f + centreFileBonus(rel, b)
	eg = 120*f*f*f + 20*f
	return mg, eg
}

func centreFileBonus(s geom.Square, b geom.Board) float64 {
	d := abs(float64(s.File()) - float64(b.Files-1)/2)
	if s.Rank() < 2 {
		return 0
	}
	return max(0, 6-3*d)
}

// mobility returns a piece's effective number of moves from s on an empty
// board (see the package documentation).
func mobility(v *rules.Variant, m betza.Movement, s geom.Square, c rules.Color) float64 {
	b := v.Board()
	total := 0.0
	for _, l := range m.Legs {
		// Each leg appears once per mode: a leg with both modes counts 1,
		// a move-only or capture-only leg counts modeOnly.
		w := 0.5
		if !hasOther(m, l) {
			w = modeOnly
		}
		if l.Flags&betza.Initial != 0 {
			w *= 0.1
		}
		dx, dy := int(l.DX), int(l.DY)
		f, r := s.File(), s.Rank()
		steps := int(l.Range)
		if steps == 0 {
			steps = 32
		}
		weight := w
		for k := 1; k <= steps; k++ {
			f += dx
			r += dy
			if f < 0 || r < 0 || f >= b.Files || r >= b.Ranks || b.Holes.Has(geom.Sq(f, r)) {
				break
			}
			if !(k == 1 && l.Flags&betza.Skip != 0) {
				total += weight
			}
			weight *= riderDiscount
		}
	}
	return total
}

// hasOther reports whether leg l also exists with the other mode.
func hasOther(m betza.Movement, l betza.Leg) bool {
	o := l
	o.Mode ^= betza.Move | betza.Capture
	for _, x := range m.Legs {
		if x == o {
			return true
		}
	}
	return false
}

// mobilityRays returns the rays of movement m for White and for Black
// (turned by 180 degrees): each vector once with the modes of its legs.
// Legs only from the initial ranks, hoppers and skippers are left out;
// a lame leg counts as if its path were free.
func mobilityRays(m betza.Movement) (r [2][]ray) {
	for _, l := range m.Legs {
		if l.Flags&(betza.Initial|betza.Hop|betza.Skip) != 0 {
			continue
		}
		steps := int(l.Range)
		if steps == 0 {
			steps = geom.MaxFiles
		}
		off := geom.Offset(int(l.DX), int(l.DY))
		i := slices.IndexFunc(r[0], func(x ray) bool { return x.off == off && x.steps == steps })
		if i < 0 {
			r[0] = append(r[0], ray{off: off, steps: steps})
			i = len(r[0]) - 1
		}
		r[0][i].move = r[0][i].move || l.Mode&betza.Move != 0
		r[0][i].capture = r[0][i].capture || l.Mode&betza.Capture != 0
	}
	for _, x := range r[0] {
		x.off = -x.off
		r[1] = append(r[1], x)
	}
	return r
}

// mobility counts the squares c's piece of type t on s reaches: empty
// ones where it moves, enemy pieces where it captures; and, with att, the
// squares next to the enemy king on k (or k itself) that its capturing
// rays reach, whatever stands there (NoSquare: none). With h, it also
// puts the squares its capturing rays reach into h (see hitFrom); with
// ck, it lists the squares it moves to that are in ck.from, for the safe
// checks (king.go), and counts in chk those of them no enemy piece
// attacks that the list has no room for; with pawnAtt, it counts the
// squares it moves to that are not in pawnAtt (no enemy pawn attacks
// them). kz holds k and the squares next to it (kingZone), or is nil.
// Where t's rays reach each square at most once and each both moves and
// captures (e.once, e.plain), the squares it reaches are gathered into
// sets and counted on them; else square by square (mobilityBySquare).
func (e *Evaluator) mobility(p *rules.Position, s geom.Square, t rules.Type, c rules.Color, k geom.Square, kz *geom.Set, h *hits, ck *checks, pawnAtt *geom.Set) (n, att, chk, safe int) {
	if !e.once[t] || !e.plain[t] {
		return e.mobilityBySquare(p, s, t, c, k, h, ck, pawnAtt)
	}
	var to, own geom.Set // the squares it moves to, and its own pieces it reaches
	var lesser uint64    // the types it threatens for threat.lesser, when h gathers them
	if h != nil {
		lesser = e.lesser[t]
	}
	rays := e.rays[t][c]
	for i := range rays {
		off, q := rays[i].off, int(s)
		for range rays[i].steps {
			q += off
			pc := p.At(geom.Square(q))
			if pc == rules.Empty {
				to.Add(geom.Square(q))
				continue
			}
			if pc != rules.Wall {
				if pc.Color() != c {
					to.Add(geom.Square(q))
					if lesser>>pc.Type()&1 != 0 {
						h.lesser[c].Add(geom.Square(q))
					}
				} else {
					own.Add(geom.Square(q))
				}
			}
			break
		}
	}
	for i := e.words[0]; i < e.words[1]; i++ {
		n += bits.OnesCount64(to[i])
		if kz != nil {
			att += bits.OnesCount64((to[i] | own[i]) & kz[i])
		}
		if h != nil {
			h.any[c][i] |= to[i] | own[i]
		}
		if pawnAtt != nil {
			safe += bits.OnesCount64(to[i] &^ pawnAtt[i])
		}
		if ck == nil {
			continue
		}
		for w := to[i] & ck.from[i]; w != 0; w &= w - 1 {
			q := geom.Square(i*64 + bits.TrailingZeros64(w))
			if !ck.add(q, t) && !e.attackedBy(p, q, c.Other()) {
				chk++
			}
		}
	}
	return n, att, chk, safe
}

// kingZone returns k and the squares next to it (those nextTo tells),
// or none for NoSquare.
func kingZone(k geom.Square) (z geom.Set) {
	if k == geom.NoSquare {
		return z
	}
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			z.Add(geom.Square(int(k) + geom.Offset(dx, dy)))
		}
	}
	return z
}

// mobilityBySquare is mobility counted square by square, for a type whose
// rays may reach a square twice (each time counts).
func (e *Evaluator) mobilityBySquare(p *rules.Position, s geom.Square, t rules.Type, c rules.Color, k geom.Square, h *hits, ck *checks, pawnAtt *geom.Set) (n, att, chk, safe int) {
	rays := e.rays[t][c]
	near := k != geom.NoSquare
	for i := range rays {
		r := &rays[i]
		q := s
		zone := r.capture && near // the ray's squares next to k count for att
		for range r.steps {
			q = geom.Square(int(q) + r.off)
			pc := p.At(q)
			if pc == rules.Wall {
				break
			}
			if zone && nextTo(q, k) {
				att++
			}
			if pc == rules.Empty {
				if r.capture && h != nil {
					h.any[c].Add(q)
				}
				if r.move {
					n++
					if pawnAtt != nil && !pawnAtt.Has(q) {
						safe++
					}
					if ck != nil && ck.from.Has(q) && !ck.add(q, t) && !e.attackedBy(p, q, c.Other()) {
						chk++
					}
				}
				continue
			}
			if r.capture {
				if pc.Color() != c {
					n++
					if pawnAtt != nil && !pawnAtt.Has(q) {
						safe++
					}
					if ck != nil && ck.from.Has(q) && !ck.add(q, t) && !e.attackedBy(p, q, c.Other()) {
						chk++
					}
				}
				if h != nil {
					e.hit(h, c, t, q, pc)
				}
			}
			break
		}
	}
	return n, att, chk, safe
}

// reachesOnce reports whether no two of the rays rs reach the same
// square from any square of b (its holes taken as squares).
func reachesOnce(rs []ray, b geom.Board) bool {
	for r := 0; r < b.Ranks; r++ {
		for f := 0; f < b.Files; f++ {
			var seen geom.Set
			s := geom.Sq(f, r)
			for _, x := range rs {
				q := s
				for range x.steps {
					q = geom.Square(int(q) + x.off)
					if !b.OnGrid(q) {
						break
					}
					if seen.Has(q) {
						return false
					}
					seen.Add(q)
				}
			}
		}
	}
	return true
}

// nextTo reports whether q is k or one of its eight neighbours (the
// mailbox's padding keeps the offsets of rows apart).
func nextTo(q, k geom.Square) bool {
	d := int(q) - int(k) + geom.Stride + 1
	if d < 0 || d > 2*geom.Stride+2 {
		return false
	}
	return d%geom.Stride <= 2
}

// fileRider reports whether a piece of movement m captures along files as
// a rider (a rook, a queen).
func fileRider(m betza.Movement) bool {
	for _, l := range m.Legs {
		if l.DX == 0 && l.DY != 0 && l.Rider() && l.Mode&betza.Capture != 0 {
			return true
		}
	}
	return false
}

// pairs counts c's colour-bound types with pieces on squares of both
// colours (the bishop pair).
func (e *Evaluator) pairs(p *rules.Position, c rules.Color) int {
	if len(e.bound) == 0 {
		return 0
	}
	var colours [rules.MaxTypes + 1]uint8
	for _, s := range p.Pieces(c) {
		colours[p.At(s).Type()] |= squareColour(s)
	}
	return e.pairCount(&colours)
}

// squareColour is 1 or 2 by the colour of s.
func squareColour(s geom.Square) uint8 { return 1 << ((s.File() + s.Rank()) & 1) }

// pairCount counts the colour-bound types whose pieces stand on both
// square colours, by type the colours of their squares (squareColour).
func (e *Evaluator) pairCount(colours *[rules.MaxTypes + 1]uint8) int {
	n := 0
	for _, t := range e.bound {
		if colours[t] == 3 {
			n++
		}
	}
	return n
}

// fileRiders counts c's file riders on files without pawns (open) and on
// files with the opponent's pawns alone (half-open).
func (e *Evaluator) fileRiders(p *rules.Position, pawns *[2][geom.MaxFiles]pawnFile, c rules.Color) (open, half int) {
	own, opp := &pawns[c], &pawns[c.Other()]
	for _, s := range p.Pieces(c) {
		if !e.rider[p.At(s).Type()] {
			continue
		}
		f := s.File()
		switch {
		case own[f].n > 0:
		case opp[f].n > 0:
			half++
		default:
			open++
		}
	}
	return open, half
}

// colourBound reports whether every move keeps the square colour.
func colourBound(m betza.Movement) bool {
	if len(m.Legs) == 0 {
		return false
	}
	for _, l := range m.Legs {
		if (int(l.DX)+int(l.DY))%2 != 0 {
			return false
		}
	}
	return true
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func clamp(x, lim float64) float64 { return max(-lim, min(lim, x)) }

// Value returns the material value of type t in centipawns (0 for royals),
// its middle-game value where the weights give two.
func (e *Evaluator) Value(t rules.Type) int { return e.value[t] }

// PieceValue returns the material value of the piece pc: its type's value,
// scaled by its rank where pieces carry ranks (see the package
// documentation).
func (e *Evaluator) PieceValue(pc rules.Piece) int {
	if e.ranked {
		return int(e.rankV[pc.Type()][min(int(pc.Attr()), maxRank)])
	}
	return e.value[pc.Type()]
}

// pieceValueEg is PieceValue in the endgame.
func (e *Evaluator) pieceValueEg(pc rules.Piece) int {
	if e.ranked {
		return int(e.rankE[pc.Type()][min(int(pc.Attr()), maxRank)])
	}
	return e.valEg[pc.Type()]
}

// evaluate scores p in centipawns from the side to move's point of view
// (Evaluate, without the cache).
func (e *Evaluator) evaluate(p *rules.Position) int {
	var mg, eg, mat, matEg [2]int
	phase := 0
	var nonRoyal [2]int
	var king [2]geom.Square
	var hasKing [2]bool
	var h hits
	var hp *hits // what each side attacks (threats, safe checks)
	if e.hitsOn {
		hp = &h
	}
	pawnH := e.pawnStep && hp != nil         // the pawns' hits are those of their attacks (pi.att)
	var chks [2]checks                       // the safe checks' squares
	var colours [2][rules.MaxTypes + 1]uint8 // the square colours of each type's pieces, for the pairs
	var m men                                // the pieces that are not royal, for the terms
	var occ [2]geom.Set                      // each side's pieces, for mobilityLeaps
	var pi pawnInfo                          // what the pawns give (pawns.go)
	var pawnKey uint64                       // the pawns' key (pawnKeys)
	for c := rules.White; c <= rules.Black; c++ {
		for _, s := range p.Pieces(c) {
			pc := p.At(s)
			t := pc.Type()
			occ[c].Add(s)
			mat[c] += e.PieceValue(pc)
			if e.split {
				matEg[c] += e.pieceValueEg(pc)
			}
			mg[c] += int(e.mg[c][t][s])
			eg[c] += int(e.eg[c][t][s])
			phase += e.phase[t]
			if !e.royal[t] {
				nonRoyal[c]++
			} else {
				king[c] = s
				hasKing[c] = true
			}
			if e.pairOn {
				colours[c][t] |= squareColour(s)
			}
			if e.termsOn {
				e.addMan(&m, c, t, s)
			}
			pawn := t == e.pawn && e.pawn != 0
			if pawn {
				pawnKey ^= pawnKeys[c][s]
				e.addPawn(&pi, c, s)
			}
			// the hits that neither the mobility's walk nor the pawns' attacks gather
			if hp != nil && !(e.walkOn && e.walks[t]) && !(pawn && pawnH) {
				e.hitFrom(p, s, t, c, hp)
			}
		}
	}
	if e.pawn != 0 {
		e.pawnInfoOf(e.pawnTableOf(), pawnKey, &pi)
		if pawnH {
			e.pawnHits(&pi, &m, &h)
		}
	}
	pawns, pa := &pi.files, &pi.att
	if e.walkOn {
		zone := [2]geom.Square{geom.NoSquare, geom.NoSquare} // the king each side attacks
		for c := rules.White; c <= rules.Black; c++ {
			if hasKing[c.Other()] {
				zone[c] = king[c.Other()]
			}
		}
		var cc checkCache
		for c := rules.White; c <= rules.Black; c++ {
			att := 0
			cc.n = 0 // empty for this side
			var pawnAtt *geom.Set
			on := e.kingOn && zone[c] != geom.NoSquare
			var kz *geom.Set // the squares next to the king attacked, for att
			if zone[c] != geom.NoSquare {
				z := kingZone(zone[c])
				kz = &z
			}
			if e.safeOn {
				pawnAtt = &pa[c.Other()]
			}
			for _, s := range p.Pieces(c) {
				t := p.At(s).Type()
				if !e.walks[t] {
					continue
				}
				var ck *checks
				if on && e.chkOn[t] {
					ck = &chks[c]
				}
				var n, a, chk, safe int
				if e.leapMob[t] {
					n, a, chk, safe = e.mobilityLeaps(p, s, t, c, zone[c], kz, &occ, hp, ck, pawnAtt)
				} else {
					if ck != nil {
						chks[c].from = e.from(p, &cc, t, c, zone[c])
					}
					n, a, chk, safe = e.mobility(p, s, t, c, zone[c], kz, hp, ck, pawnAtt)
				}
				mg[c] += safe * e.safeW[t][0]
				eg[c] += safe * e.safeW[t][1]
				mg[c] += n*e.mobW[t][0] + chk*e.chkW[t][0]
				eg[c] += n*e.mobW[t][1] + chk*e.chkW[t][1]
				att += a
			}
			mg[c] += att * e.att[0]
			eg[c] += att * e.att[1]
		}
		// the safe checks listed: h holds every square each side attacks
		for c := rules.White; c <= rules.Black; c++ {
			ck := &chks[c]
			for i := range ck.n {
				if t := ck.t[i]; !h.any[c.Other()].Has(ck.q[i]) {
					mg[c] += e.chkW[t][0]
					eg[c] += e.chkW[t][1]
				}
			}
		}
	}
	if e.pawn != 0 {
		for c := rules.White; c <= rules.Black; c++ {
			mg[c] += pi.mg[c]
			eg[c] += pi.eg[c]
			if king[c] != geom.NoSquare {
				mg[c] += e.shield(&pawns[c], king[c], c)
			}
			if e.fileOn {
				open, half := e.fileRiders(p, pawns, c)
				mg[c] += open*e.open[0] + half*e.half[0]
				eg[c] += open*e.open[1] + half*e.half[1]
			}
		}
	}
	if e.termsOn {
		ks := [2]geom.Square{geom.NoSquare, geom.NoSquare}
		for c := rules.White; c <= rules.Black; c++ {
			if hasKing[c] {
				ks[c] = king[c]
			}
		}
		for c := rules.White; c <= rules.Black; c++ {
			var x termCounts
			e.countTerms(p, &pi, ks, &h, &m, c, &x)
			for i, n := range x.n {
				mg[c] += n * e.termWt[i][0]
				eg[c] += n * e.termWt[i][1]
			}
		}
	}
	if e.pairOn {
		for c := rules.White; c <= rules.Black; c++ {
			n := e.pairCount(&colours[c])
			mg[c] += n * e.pair[0]
			eg[c] += n * e.pair[1]
		}
	}
	ph := min(phase, e.full)
	w := mat[0] - mat[1]
	if e.split {
		w = (w*ph + (matEg[0]-matEg[1])*(e.full-ph)) / e.full
	}
	w += ((mg[0]-mg[1])*ph + (eg[0]-eg[1])*(e.full-ph)) / e.full
	w += e.mopUp(p, nonRoyal, mat)
	if p.Turn() == rules.Black {
		w = -w
	}
	switch {
	case e.termOn:
		tf := e.terms.TermFeatures(p)
		s := 0.0
		for i, x := range e.termW {
			s += x * tf[i]
		}
		if p.Turn() == rules.Black {
			s = -s
		}
		w += int(math.Round(s))
	case e.extra != nil:
		w += e.extra.Eval(p)
	}
	return w + e.tempo
}

// pawnFile summarises one side's pawns on one file, in ranks counted
// from that side.
type pawnFile struct {
	n        int8
	min, max int8 // least and most advanced pawn
}

func (f *pawnFile) add(rank int) {
	if f.n == 0 || int8(rank) < f.min {
		f.min = int8(rank)
	}
	if f.n == 0 || int8(rank) > f.max {
		f.max = int8(rank)
	}
	f.n++
}

// relRank counts ranks from c's own first rank.
func (e *Evaluator) relRank(c rules.Color, s geom.Square) int {
	if c == rules.White {
		return s.Rank()
	}
	return e.ranks - 1 - s.Rank()
}

// pawnStructure scores c's pawns: passed pawns (no enemy pawn ahead on the
// file or a neighbouring one) gain with their advance, doubled and isolated
// pawns lose.
func (e *Evaluator) pawnStructure(pawns *[2][geom.MaxFiles]pawnFile, c rules.Color) (mg, eg int) {
	files := e.files
	own, opp := &pawns[c], &pawns[c.Other()]
	last := e.ranks - 1
	for f := 0; f < files; f++ {
		pf := own[f]
		if pf.n == 0 {
			continue
		}
		if pf.n > 1 {
			mg += e.doubled[0] * int(pf.n-1)
			eg += e.doubled[1] * int(pf.n-1)
		}
		if isolated(own, f, files) {
			mg += e.isolated[0]
			eg += e.isolated[1]
		}
		if passed(own, opp, f, files, last) {
			adv := float64(pf.max) / float64(max(1, last-1))
			mg += int(e.passed[0] + e.passedAdv[0]*adv*adv)
			eg += int(e.passed[1] + e.passedAdv[1]*adv*adv)
		}
	}
	return mg, eg
}

// isolated reports whether no own pawn stands on a file beside f.
func isolated(own *[geom.MaxFiles]pawnFile, f, files int) bool {
	return (f == 0 || own[f-1].n == 0) && (f == files-1 || own[f+1].n == 0)
}

// passed reports whether the most advanced own pawn on file f is passed: no
// enemy pawn stands ahead of it on this file or a neighbour (enemy ranks
// are counted from the other side: ahead means its own rank > last - ours).
func passed(own, opp *[geom.MaxFiles]pawnFile, f, files, last int) bool {
	for g := max(0, f-1); g <= min(files-1, f+1); g++ {
		if o := opp[g]; o.n > 0 && last-int(o.min) > int(own[f].max) {
			return false
		}
	}
	return true
}

// shield rewards pawns in front of and beside the king while the king is
// on its first two ranks.
func (e *Evaluator) shield(own *[geom.MaxFiles]pawnFile, k geom.Square, c rules.Color) int {
	return e.shelter * e.shieldPawns(own, k, c)
}

// shieldPawns counts the pawns that shield does.
func (e *Evaluator) shieldPawns(own *[geom.MaxFiles]pawnFile, k geom.Square, c rules.Color) int {
	kr := e.relRank(c, k)
	if kr > 1 {
		return 0
	}
	n := 0
	for f := max(0, k.File()-1); f <= min(e.files-1, k.File()+1); f++ {
		if pf := own[f]; pf.n > 0 && int(pf.min) > kr && int(pf.min) <= kr+2 {
			n++
		}
	}
	return n
}

// mopUp rewards the side with more material, when the other has only royal
// pieces, for cornering the lone king and approaching it.
func (e *Evaluator) mopUp(p *rules.Position, nonRoyal, mat [2]int) int {
	for c := rules.White; c <= rules.Black; c++ {
		o := c.Other()
		if nonRoyal[o] != 0 || mat[c] <= mat[o] {
			continue
		}
		ks, ok := e.royalSquare(p, o)
		if !ok {
			return 0
		}
		bonus := e.mopEdge * int(e.center[ks])
		if own, ok := e.royalSquare(p, c); ok {
			dist := max(absInt(own.File()-ks.File()), absInt(own.Rank()-ks.Rank()))
			bonus += e.mopNear * (16 - dist)
		}
		if e.mopBox != 0 {
			bonus += e.mopBox * e.boxShrink(p, ks, c)
		}
		if c == rules.Black {
			return -bonus
		}
		return bonus
	}
	return 0
}

// boxShrink returns the board's squares the lone royal on ks cannot
// reach by steps of one square (orthogonal or diagonal) through squares
// that no piece of c attacks: the room the stronger side c has taken from
// it. Unlike the royal's distance to the edge, the defender cannot undo
// this room's loss with its next move, so a shallow search makes progress
// towards the mate by it (a rook or a queen cutting the royal off).
func (e *Evaluator) boxShrink(p *rules.Position, ks geom.Square, c rules.Color) int {
	victim := p.At(ks).Type()
	var seen geom.Set
	var queue [geom.MaxFiles * geom.MaxRanks]geom.Square
	seen.Add(ks)
	queue[0] = ks
	n := 1
	for i := 0; i < n; i++ {
		s := queue[i]
		for _, d := range geom.Around {
			t := geom.Square(int(s) + d)
			if !e.onBoard.Has(t) || seen.Has(t) {
				continue
			}
			seen.Add(t)
			if !p.Attacked(t, c, victim) {
				queue[n] = t
				n++
			}
		}
	}
	return e.onBoard.Len() - n
}

func (e *Evaluator) royalSquare(p *rules.Position, c rules.Color) (geom.Square, bool) {
	for _, s := range p.Pieces(c) {
		if e.royal[p.At(s).Type()] {
			return s, true
		}
	}
	return geom.NoSquare, false
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
