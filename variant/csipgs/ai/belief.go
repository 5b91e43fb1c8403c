package ai

import (
	"math/rand/v2"
	"slices"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant/csipgs"
)

// maxTypes is the number of csipgs piece types (one a letter).
const maxTypes = 26

// belief is what the engine remembers, from the views it was given alone,
// of where the opponent's unseen pieces may stand in a moderated game: by
// piece type, the squares where the views last showed such pieces and
// every square those pieces could have reached since by their movement,
// one move a turn of the opponent, less the squares a later view showed
// without them. A piece the opponent transfers from its reserve (the
// reserve is public unless HideEconomy hides it) comes onto a square next
// to one of its royals, so a type whose reserve count fell gains the
// squares next to where its royals may stand. The start is public: a game
// seen from its first turns begins with the opponent's pieces where the
// variant's start puts them.
// A type the views tell nothing of has no region, and its unseen pieces
// go anywhere out of sight, as without a belief.
type belief struct {
	fullmove int    // the fullmove number of the last view taken in (0: none yet)
	key      uint64 // that view's hash: the same view again changes nothing
	viewer   rules.Color
	known    [maxTypes + 1]bool     // region[t] is what the views tell
	region   [maxTypes + 1]geom.Set // where an unseen piece of type t may stand
	seen     [maxTypes + 1]geom.Set // where the last view showed the opponent's pieces of type t
	pocket   [maxTypes + 1]int      // the opponent's reserve by type in the last view
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
	// Where the opponent's royals may stand, for its transfers.
	var royals geom.Set
	royalKnown := false
	for _, td := range csipgs.TypeTable(q) {
		if t := int(td.Letter-'A') + 1; td.Royal && (b.known[t] || !b.seen[t].Empty()) {
			royals.Union(&b.region[t])
			royals.Union(&b.seen[t])
			royalKnown = true
		}
	}
	for t := 1; t <= maxTypes; t++ {
		pc := rules.MakePiece(them, rules.Type(t))
		have := b.known[t] || !b.seen[t].Empty()
		var r geom.Set
		if have {
			base := b.region[t]
			base.Union(&b.seen[t])
			var ok bool
			if r, ok = grow(q, pc, base, steps); !ok {
				b.known[t] = false
				continue
			}
		}
		if q.Pocket(them, rules.Type(t)) < b.pocket[t] && royalKnown && steps > 0 {
			// A transfer, in one of the turns since: next to a royal,
			// then moved in the turns after it.
			if n, ok := grow(q, pc, neighbours(q, royals), steps-1); ok {
				r.Union(&n)
				have = true
			}
		}
		if !have {
			continue
		}
		for _, s := range vw.Visible.Squares() {
			r.Remove(s)
		}
		b.region[t], b.known[t] = r, true
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

// neighbours returns the squares of q's board next to a square of r.
func neighbours(q *rules.Position, r geom.Set) geom.Set {
	b := q.Variant().Board()
	var out geom.Set
	for _, s := range r.Squares() {
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				f, k := s.File()+dx, s.Rank()+dy
				if (dx != 0 || dy != 0) && f >= 0 && k >= 0 && f < b.Files && k < b.Ranks {
					out.Add(geom.Sq(f, k))
				}
			}
		}
	}
	return out
}

// fromStart sets the regions of a belief without views before q: the
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
	b.region, b.known = region, known
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

// place rearranges sample, a determinization of view vw (the opponent's
// pieces the view does not show put on unseen squares), by the belief:
// each such piece goes to a square of its type's region, drawn from rng,
// or where the region has no free square left, to any unseen empty one.
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
	var free []geom.Square
	for _, s := range q.Variant().Board().Squares() {
		if !vw.Visible.Has(s) && q.At(s) == rules.Empty {
			free = append(free, s)
		}
	}
	for _, pc := range hidden {
		t := pc.Type()
		cands := free
		if t >= 1 && t <= maxTypes && b.known[t] {
			cands = nil
			for _, s := range free {
				if b.region[t].Has(s) {
					cands = append(cands, s)
				}
			}
			if len(cands) == 0 {
				cands = free
			}
		}
		if len(cands) == 0 {
			break
		}
		s := cands[rng.IntN(len(cands))]
		q.Put(s, pc)
		free = slices.DeleteFunc(free, func(x geom.Square) bool { return x == s })
	}
	return q
}
