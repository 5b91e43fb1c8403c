package eval

import (
	"math/bits"

	"github.com/anychess/anychess/betza"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// The terms of a hand-written chess evaluation, defined for any variant
// from its data (its pawn type and how it captures, its pieces' movement
// and hand-set values, its royal piece), each counted for one side and
// weighed by a pair of weights (middle game, endgame) that are 0 by
// default; see Names.
const (
	tPhalanx      = iota // pawns with an own pawn beside them on the same rank
	tSupported           // pawns an own pawn defends
	tBlocked             // passed pawns with a piece on the square in front
	tKingOwn             // own king's distance to a passed pawn's square in front, times its advance
	tKingEnemy           // enemy king's distance to that square, times the advance
	tThreatPawn          // enemy pieces (not pawns) that an own pawn attacks
	tThreatLesser        // enemy pieces that an own piece worth at least half a pawn less attacks
	tHanging             // enemy pieces attacked and not defended
	tKingOpen            // files at and beside the own royal piece without an own pawn
	tKingStorm           // the advance of the enemy pawns on those files
	numTerms
)

var termWeightNames = [numTerms]string{
	"pawn.phalanx", "pawn.supported", "pawn.passed.blocked",
	"pawn.passed.king.own", "pawn.passed.king.enemy",
	"threat.pawn", "threat.lesser", "threat.hanging",
	"king.openfile", "king.storm",
}

// lesserMargin is how much less than its victim, in the hand-set
// centipawns, an attacker is worth for threat.lesser (a knight attacking
// a bishop is no such threat).
const lesserMargin = 50

// pawnCapture is a step by which a pawn captures: its mailbox offset.
type pawnCapture struct {
	off int
}

// pawnCaptures returns the steps by which the pawn type's pieces of each
// colour capture one square away.
func pawnCaptures(v *rules.Variant, pawn rules.Type) (caps [2][]pawnCapture) {
	if pawn == 0 {
		return caps
	}
	for _, l := range v.Movement(pawn).Legs {
		if l.Mode&betza.Capture == 0 || l.Range != 1 || l.Flags&(betza.Initial|betza.Hop|betza.Skip) != 0 {
			continue
		}
		dx, dy := int(l.DX), int(l.DY)
		caps[0] = append(caps[0], pawnCapture{off: geom.Offset(dx, dy)})
		caps[1] = append(caps[1], pawnCapture{off: geom.Offset(-dx, -dy)})
	}
	return caps
}

// termCounts are one side's counts of the terms, by the constants above.
type termCounts struct {
	n [numTerms]int
}

// chebyshev returns the king's distance between two squares.
func chebyshev(a, b geom.Square) int {
	return max(absInt(a.File()-b.File()), absInt(a.Rank()-b.Rank()))
}

// countTerms counts c's terms; pi holds what the pawns give
// (pawnInfo), m the squares of the men.
func (e *Evaluator) countTerms(p *rules.Position, pi *pawnInfo, king [2]geom.Square, h *hits, m *men, c rules.Color, x *termCounts) {
	files, last := e.files, e.ranks-1
	o := c.Other()
	lo, hi := e.words[0], e.words[1]
	pawns := &pi.files
	if e.pawn != 0 {
		x.n[tPhalanx] += pi.phalanx[c]
		x.n[tSupported] += pi.supported[c]
		// passed pawns: the most advanced own pawn of each passed file
		own := &pawns[c]
		for f := 0; f < files; f++ {
			pf := own[f]
			if pi.passed[c]&(1<<f) == 0 || int(pf.max) >= last {
				continue
			}
			rank := int(pf.max) + 1
			if c == rules.Black {
				rank = last - rank
			}
			front := geom.Sq(f, rank)
			if q := p.At(front); q.IsPiece() {
				x.n[tBlocked]++
			}
			adv := max(0, int(pf.max)-2)
			if adv == 0 {
				continue
			}
			if king[c] != geom.NoSquare {
				x.n[tKingOwn] += adv * chebyshev(king[c], front)
			}
			if king[o] != geom.NoSquare {
				x.n[tKingEnemy] += adv * chebyshev(king[o], front)
			}
		}
	}
	// the files at and beside c's royal piece
	if e.pawn != 0 && king[c] != geom.NoSquare {
		kf := king[c].File()
		for f := max(0, kf-1); f <= min(files-1, kf+1); f++ {
			if pawns[c][f].n == 0 {
				x.n[tKingOpen]++
			}
			if op := pawns[o][f]; op.n > 0 {
				x.n[tKingStorm] += max(0, int(op.max)-2)
			}
		}
	}
	// threats to o's pieces (not royal)
	for i := lo; i < hi; i++ {
		w := m.nonRoyal[o][i]
		x.n[tThreatPawn] += bits.OnesCount64(w & h.pawn[c][i])
		x.n[tThreatLesser] += bits.OnesCount64(w & h.lesser[c][i])
		x.n[tHanging] += bits.OnesCount64(w & h.any[c][i] &^ h.any[o][i])
	}
}

// men are the squares of each side's pieces that are not royal, for the
// threats countTerms counts by sets.
type men struct {
	nonRoyal [2]geom.Set
}

// addMan puts c's piece of type t on s into m.
func (e *Evaluator) addMan(m *men, c rules.Color, t rules.Type, s geom.Square) {
	if !e.royal[t] {
		m.nonRoyal[c].Add(s)
	}
}

// boardWords returns the range of words of a geom.Set that hold the
// squares of a board with that many ranks.
func boardWords(ranks int) [2]int {
	return [2]int{int(geom.Sq(0, 0)) / 64, int(geom.Sq(geom.MaxFiles-1, ranks-1))/64 + 1}
}

// hits are what each side attacks: any[c] the squares c's pieces attack,
// empty or not (of the pieces, those of either side that c's pieces could
// capture if they were enemies),
// pawn[c] the enemy pieces other than pawns that c's pawns attack (the
// royal ones may be left out: countTerms does not count them),
// lesser[c] the enemy pieces that c's pieces worth at least lesserMargin
// less attack (not pawns or royal pieces).
type hits struct {
	any, pawn, lesser [2]geom.Set
}

// hitSets puts into h what every piece attacks (hitFrom).
func (e *Evaluator) hitSets(p *rules.Position, h *hits) {
	for c := rules.White; c <= rules.Black; c++ {
		for _, s := range p.Pieces(c) {
			e.hitFrom(p, s, p.At(s).Type(), c, h)
		}
	}
}

// hitFrom walks the capturing rays of c's piece of type t on s (as
// mobility does: legs from the initial ranks, hops and skips left out,
// lame legs as if free) to the first piece on each, into h.
func (e *Evaluator) hitFrom(p *rules.Position, s geom.Square, t rules.Type, c rules.Color, h *hits) {
	if e.leap[t][c] != nil && t != e.pawn && e.lesser[t] == 0 {
		// a leaper that threatens no type (a royal one): what it
		// reaches, from its table
		lo := e.words[0]
		for j, r := range e.leapSet(t, c, s) {
			h.any[c][lo+j] |= r
		}
		return
	}
	e.hitWalk(p, s, t, c, h)
}

// hitWalk is hitFrom, walked.
func (e *Evaluator) hitWalk(p *rules.Position, s geom.Square, t rules.Type, c rules.Color, h *hits) {
	for _, r := range e.hitRays[t][c] {
		q := s
		for range r.steps {
			q = geom.Square(int(q) + r.off)
			pc := p.At(q)
			if pc == rules.Empty {
				h.any[c].Add(q)
				continue
			}
			if pc.IsPiece() {
				e.hit(h, c, t, q, pc)
			}
			break
		}
	}
}

// hit puts into h the piece pc on q that c's piece of type t attacks.
func (e *Evaluator) hit(h *hits, c rules.Color, t rules.Type, q geom.Square, pc rules.Piece) {
	if t != e.pawn {
		e.pieceHit(h, c, t, q, pc)
		return
	}
	h.any[c].Add(q)
	if pc.Color() != c && pc.Type() != e.pawn {
		h.pawn[c].Add(q)
	}
}

// pieceHit is hit for a type t that is not the pawn.
func (e *Evaluator) pieceHit(h *hits, c rules.Color, t rules.Type, q geom.Square, pc rules.Piece) {
	h.any[c].Add(q)
	if pc.Color() != c && e.lesser[t]>>pc.Type()&1 != 0 {
		h.lesser[c].Add(q)
	}
}

// lessers returns, by type, the types (a bit each) its pieces attack for
// threat.lesser: those worth at least lesserMargin more by the hand-set
// values, where the attacker is neither the pawn nor royal.
func (e *Evaluator) lessers() (l [rules.MaxTypes + 1]uint64) {
	n := rules.Type(e.v.NumTypes())
	for t := rules.Type(1); t <= n; t++ {
		if t == e.pawn || e.royal[t] {
			continue
		}
		for vt := rules.Type(1); vt <= n; vt++ {
			if e.hand[t]+lesserMargin <= e.hand[vt] {
				l[t] |= 1 << vt
			}
		}
	}
	return l
}

// hitRays returns the capturing rays of movement m for White and Black.
func hitRays(m betza.Movement) (r [2][]ray) {
	all := mobilityRays(m)
	for c := range all {
		for _, x := range all[c] {
			if x.capture {
				r[c] = append(r[c], x)
			}
		}
	}
	return r
}
