package eval

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// The weights of one piece type, in this order from pieceBase: its value,
// the scale of its hand-set piece-square table, a term per half square of
// distance from the centre and one per rank of advance from its own first
// rank, each for the middle game and the endgame.
const (
	valueMg = iota
	valueEg
	tableMg
	tableEg
	centreMg
	centreEg
	advanceMg
	advanceEg
	mobilityMg
	mobilityEg
	mobSafeMg
	mobSafeEg
	checkMg
	checkEg
	perType
)

var typeNames = [perType]string{"value.mg", "value.eg", "table.mg", "table.eg", "centre.mg", "centre.eg", "advance.mg", "advance.eg", "mobility.mg", "mobility.eg",
	"mobility.safe.mg", "mobility.safe.eg", "check.mg", "check.eg"}

// The weights shared by all types, in this order from globalBase.
const (
	gDoubledMg = iota
	gDoubledEg
	gIsolatedMg
	gIsolatedEg
	gPassedMg
	gPassedEg
	gPassedAdvMg
	gPassedAdvEg
	gShelter
	gTempo
	gMopEdge
	gMopNear
	gMopBox
	gPairMg
	gPairEg
	gOpenMg
	gOpenEg
	gHalfOpenMg
	gHalfOpenEg
	gKingAttMg
	gKingAttEg
	gTerms    // numTerms pairs (mg, eg) of the terms of terms.go
	numGlobal = gTerms + 2*numTerms
)

var globals = func() [numGlobal]struct {
	name string
	def  float64
} {
	var g [numGlobal]struct {
		name string
		def  float64
	}
	copy(g[:], globalsHand[:])
	for i, n := range termWeightNames {
		g[gTerms+2*i].name = n + ".mg"
		g[gTerms+2*i+1].name = n + ".eg"
	}
	return g
}()

// globalsHand are the shared weights before the terms of terms.go, with
// their defaults.
var globalsHand = [gTerms]struct {
	name string
	def  float64
}{
	{"pawn.doubled.mg", -10}, {"pawn.doubled.eg", -20},
	{"pawn.isolated.mg", -10}, {"pawn.isolated.eg", -12},
	{"pawn.passed.mg", 10}, {"pawn.passed.eg", 20},
	{"pawn.passed.advance.mg", 40}, {"pawn.passed.advance.eg", 120},
	{"king.shelter", 12},
	{"tempo", 10},
	{"mopup.edge", 20}, {"mopup.near", 20}, {"mopup.box", 12},
	{"pair.mg", 0}, {"pair.eg", 0},
	{"file.open.mg", 0}, {"file.open.eg", 0},
	{"file.halfopen.mg", 0}, {"file.halfopen.eg", 0},
	{"king.attack.mg", 0}, {"king.attack.eg", 0},
}

// MaxTerms bounds the number of a variant's own terms (Terms).
const MaxTerms = 16

// Terms is implemented by a variant's rules.Engine whose Eval is a sum of
// terms of the variant's own, each a feature of the position times a
// weight: the evaluation then makes those weights its own, named by
// TermNames after the shared weights, so that they can be learned. While
// every term weight keeps its default the evaluation calls Eval as it is;
// otherwise it adds the weighted sum of TermFeatures instead.
type Terms interface {
	// TermNames names the terms, at most MaxTerms, in a fixed order.
	TermNames() []string
	// TermDefaults returns the weights that make the weighted sum Eval.
	TermDefaults() []float64
	// TermFeatures returns p's terms from White's point of view, in the
	// order of TermNames: with TermDefaults as weights their sum is Eval(p)
	// from White's point of view, up to the rounding of whole centipawns.
	TermFeatures(p *rules.Position) [MaxTerms]float64
}

// rankNames are the weights of the ranks 1..maxRank where pieces carry
// ranks (rank 0 has none: it is the type's value).
var rankNames = func() []string {
	n := make([]string, maxRank)
	for r := 1; r <= maxRank; r++ {
		n[r-1] = fmt.Sprintf("rank.%d", r)
	}
	return n
}()

func pieceBase(t rules.Type) int      { return (int(t) - 1) * perType }
func globalBase(v *rules.Variant) int { return v.NumTypes() * perType }
func termBase(v *rules.Variant) int   { return globalBase(v) + numGlobal }

// rankBase is the index of the weight rank.1, where pieces carry ranks.
func rankBase(v *rules.Variant) int { return termBase(v) + len(termNames(v)) }

// squareBase is the index of the first per-square weight, after the ranks'.
func squareBase(v *rules.Variant) int {
	n := rankBase(v)
	if v.Chance() {
		n += maxRank
	}
	return n
}

// squareWidth is the number of files of a per-square table: the files are
// mirrored, so a table covers the files up to the board's middle (the
// middle file itself where there is one).
func squareWidth(b geom.Board) int { return (b.Files + 1) / 2 }

// squareCells is the number of weights of one per-square table.
func squareCells(b geom.Board) int { return squareWidth(b) * b.Ranks }

// squareIndex returns the place in a per-square table of the square rel,
// seen from its owner's side: its rank, and its file or the mirrored file.
func squareIndex(b geom.Board, rel geom.Square) int {
	f := rel.File()
	if f >= squareWidth(b) {
		f = b.Files - 1 - f
	}
	return rel.Rank()*squareWidth(b) + f
}

// squareName names a place of a per-square table by its square: the
// file's letter and the rank's number, as "e4".
func squareName(b geom.Board, i int) string {
	w := squareWidth(b)
	return string(geom.FileName(i%w)) + strconv.Itoa(i/w+1)
}

// termsOf returns v's Terms, or nil.
func termsOf(v *rules.Variant) Terms {
	t, _ := v.Ext().(Terms)
	return t
}

func termNames(v *rules.Variant) []string {
	if t := termsOf(v); t != nil {
		return t.TermNames()
	}
	return nil
}

// Names returns the names of v's weights in a fixed order: for each piece
// type, by its letter L,
//
//	L.value.mg, L.value.eg       its value in the middle game and the endgame
//	L.table.mg, L.table.eg       the scale of its hand-set piece-square table (1)
//	L.centre.mg, L.centre.eg     per half square of distance from the centre (0)
//	L.advance.mg, L.advance.eg   per rank from its own first rank (0)
//	L.mobility.mg, L.mobility.eg per square the piece reaches on the board
//	                             as it stands (0; not for pawns and royals)
//	L.mobility.safe.mg/eg        per square of those that no enemy pawn
//	                             attacks (0, not for pawns and royals)
//	L.check.mg, L.check.eg       per safe check: a square the piece moves
//	                             to from which it would attack the enemy
//	                             royal piece, and that no enemy piece
//	                             attacks (0; not for pawns and royals)
//
// then the pawn structure (pawn.doubled.mg/eg per extra pawn on a file,
// pawn.isolated.mg/eg, pawn.passed.mg/eg and pawn.passed.advance.mg/eg
// times the square of a passed pawn's advance from 0 to 1), king.shelter
// per shielding pawn in the middle game, tempo, mopup.edge, mopup.near
// and mopup.box (driving a lone king to the edge, bringing the own king
// near, taking the lone king's room: the squares it cannot reach),
// pair.mg/eg per type bound to one square colour with pieces on both
// colours (the bishop pair), file.open.mg/eg and file.halfopen.mg/eg per
// piece that rides along files on a file without pawns or without own
// pawns (a rook or queen on an open or half-open file), king.attack.mg/eg
// per square next to the enemy king (or its own) that a piece's
// capturing rays reach,
// pawn.phalanx.mg/eg per pawn with an own pawn beside it,
// pawn.supported.mg/eg per pawn an own pawn defends,
// pawn.passed.blocked.mg/eg per passed pawn with a piece in front of it,
// pawn.passed.king.own.mg/eg and pawn.passed.king.enemy.mg/eg the own and
// the enemy king's distance to the square in front of a passed pawn times
// its ranks beyond the third, threat.pawn.mg/eg
// per enemy piece (not a pawn) an own pawn attacks, threat.lesser.mg/eg
// per enemy piece an own piece worth at least half a pawn less attacks and
// threat.hanging.mg/eg per enemy piece attacked and not defended (royal
// pieces are never counted as victims), king.openfile.mg/eg per file at
// or beside the own royal piece without an own pawn and king.storm.mg/eg
// the ranks beyond their third of the most advanced enemy pawn on each of
// those files, these twenty-eight 0 by default,
// then the variant's own terms (Terms), where pieces carry ranks rank.1 to
// rank.9 (what a piece of that rank is worth beyond its type's value times
// its durability, in percent of the type's hand-set value), and last, for
// each type and phase, a per-square table added to the piece-square terms
// (0 by default):
//
//	L.square.mg.SQ, L.square.eg.SQ  on the square SQ (as "e4"), seen from
//	                                the owner's side (ranks counted from
//	                                its first rank, as White sees them)
//
// whose files are mirrored: a table covers the files a to the board's
// middle (a to d on 8 files, a to e on 9 or 10), and a square of the other
// half takes the weight of its mirror image (h1 that of a1).
func Names(v *rules.Variant) []string {
	n := make([]string, 0, globalBase(v)+numGlobal)
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		l := string(v.PieceSpec(t).Letter)
		for _, s := range typeNames {
			n = append(n, l+"."+s)
		}
	}
	for _, g := range globals {
		n = append(n, g.name)
	}
	n = append(n, termNames(v)...)
	if v.Chance() {
		n = append(n, rankNames...)
	}
	b := v.Board()
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		l := string(v.PieceSpec(t).Letter)
		for _, ph := range [2]string{"mg", "eg"} {
			for i := range squareCells(b) {
				n = append(n, l+".square."+ph+"."+squareName(b, i))
			}
		}
	}
	return n
}

// Defaults returns the hand-set weights of v, by name.
func Defaults(v *rules.Variant) map[string]float64 {
	d := defaults(v)
	m := make(map[string]float64, len(d))
	for i, n := range Names(v) {
		m[n] = d[i]
	}
	return m
}

func defaults(v *rules.Variant) []float64 {
	w := make([]float64, len(Names(v)))
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		b := w[pieceBase(t):]
		b[valueMg] = float64(handValue(v, t))
		b[valueEg] = b[valueMg]
		b[tableMg], b[tableEg] = 1, 1
	}
	for i, g := range globals {
		w[globalBase(v)+i] = g.def
	}
	if t := termsOf(v); t != nil {
		copy(w[termBase(v):], t.TermDefaults())
	}
	return w
}

// CheckWeights reports the names in w that are not weights of v, values
// that are not finite numbers, and per-square tables of the wrong size
// (CheckTables).
func CheckWeights(v *rules.Variant, w map[string]float64) error {
	if err := CheckTables(v, w); err != nil {
		return err
	}
	known := map[string]bool{}
	for _, n := range Names(v) {
		known[n] = true
	}
	var bad []string
	for n, x := range w {
		switch {
		case !known[n]:
			bad = append(bad, fmt.Sprintf("%q is not a weight of %s", n, v.Name()))
		case math.IsNaN(x) || math.IsInf(x, 0):
			bad = append(bad, fmt.Sprintf("%s = %v is not a finite number", n, x))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("eval: weights of %s: %s", v.Name(), strings.Join(bad, "; "))
}

// CheckTables reports the per-square tables in w (names L.square.mg.SQ
// and L.square.eg.SQ) that are not whole: a table names every square of
// its half of the board (see Names) or none. Other names are not its
// business.
func CheckTables(v *rules.Variant, w map[string]float64) error {
	b := v.Board()
	letters := map[string]bool{}
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		letters[string(v.PieceSpec(t).Letter)] = true
	}
	type shape struct{ n, files, ranks int }
	tables := map[string]*shape{}
	var bad []string
	for n := range w {
		l, rest, ok := strings.Cut(n, ".square.")
		if !ok || strings.Contains(l, ".") {
			continue
		}
		ph, sq, ok := strings.Cut(rest, ".")
		if !ok || (ph != "mg" && ph != "eg") {
			continue
		}
		table := l + ".square." + ph
		if !letters[l] {
			bad = append(bad, fmt.Sprintf("%s: %s has no piece %q", table, v.Name(), l))
			continue
		}
		f, r, ok := parseSquare(sq)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: %q is not a square", n, sq))
			continue
		}
		s := tables[table]
		if s == nil {
			s = &shape{}
			tables[table] = s
		}
		s.n++
		s.files, s.ranks = max(s.files, f+1), max(s.ranks, r+1)
	}
	wantF := squareWidth(b)
	for table, s := range tables {
		if s.files != wantF || s.ranks != b.Ranks || s.n != wantF*b.Ranks {
			bad = append(bad, fmt.Sprintf("%s: %d squares reaching %d ranks and %d files, want %d ranks of %d files (a to %c: the files are mirrored)",
				table, s.n, s.ranks, s.files, b.Ranks, wantF, geom.FileName(wantF-1)))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("eval: weights of %s: %s", v.Name(), strings.Join(bad, "; "))
}

// parseSquare reads a square's name, a file letter and a rank from 1,
// without a board: the zero-based file and rank.
func parseSquare(s string) (f, r int, ok bool) {
	if len(s) < 2 || s[0] < 'a' || s[0] >= 'a'+geom.MaxFiles {
		return 0, 0, false
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 1 || n > geom.MaxRanks || s[1] == '0' || s[1] == '+' {
		return 0, 0, false
	}
	return int(s[0] - 'a'), n - 1, true
}

// Weights returns the evaluator's weights in the order of Names.
func (e *Evaluator) Weights() []float64 { return append([]float64(nil), e.w...) }

// Features writes into dst (len(Names) long) the features of p that the
// weights multiply, from White's point of view, and returns what the
// evaluation adds that no weight scales (the variant's Eval hook, turned to
// White's point of view, where the hook has no Terms). The evaluation of p from White's side is then
// the dot product of the weights with dst plus that offset, up to the
// rounding of whole centipawns; Evaluate turns it to the side to move.
func (e *Evaluator) Features(p *rules.Position, dst []float64) float64 {
	clear(dst)
	var pi pawnInfo
	e.pawnInfo(p, &pi)
	pawns, pa := &pi.files, &pi.att
	var king [2]geom.Square
	var nonRoyal, mat [2]int
	phase := 0
	var m men
	for c := rules.White; c <= rules.Black; c++ {
		king[c] = geom.NoSquare
		for _, s := range p.Pieces(c) {
			pc := p.At(s)
			t := pc.Type()
			e.addMan(&m, c, t, s)
			phase += e.phase[t]
			mat[c] += e.PieceValue(pc)
			if e.royal[t] {
				king[c] = s
			} else {
				nonRoyal[c]++
			}
		}
	}
	var h hits
	e.hitSets(p, &h)
	ph := min(phase, e.full)
	fm := float64(ph) / float64(e.full)
	fe := 1 - fm
	b := e.v.Board()
	for c := rules.White; c <= rules.Black; c++ {
		sign := 1.0
		if c == rules.Black {
			sign = -1
		}
		var cc checkCache
		var ck checks
		on := king[c.Other()] != geom.NoSquare
		var kz *geom.Set // the squares next to the enemy king, for the attack on it
		if on {
			z := kingZone(king[c.Other()])
			kz = &z
		}
		for _, s := range p.Pieces(c) {
			pc := p.At(s)
			t := pc.Type()
			rel := s
			if c == rules.Black {
				rel = b.Rotate(s)
			}
			d := dst[pieceBase(t):]
			val := 1.0
			if e.ranked {
				r := min(int(pc.Attr()), maxRank)
				val = e.dur[r]
				if r > 0 {
					dst[e.rankAt+r-1] += sign * float64(e.hand[t]) / 100
				}
			}
			d[valueMg] += sign * val * fm
			d[valueEg] += sign * val * fe
			d[tableMg] += sign * e.shape[t][0][rel] * fm
			d[tableEg] += sign * e.shape[t][1][rel] * fe
			ctr, adv := float64(e.center[rel]), float64(rel.Rank())
			d[centreMg] += sign * ctr * fm
			d[centreEg] += sign * ctr * fe
			d[advanceMg] += sign * adv * fm
			d[advanceEg] += sign * adv * fe
			sq := e.sqAt + (int(t)-1)*2*e.sqCells + e.sqIdx[rel]
			dst[sq] += sign * fm
			dst[sq+e.sqCells] += sign * fe
			if e.walks[t] {
				var ckp *checks
				if on {
					ck.from, ck.n = e.from(p, &cc, t, c, king[c.Other()]), 0
					ckp = &ck
				}
				n, att, chk, safe := e.mobility(p, s, t, c, king[c.Other()], kz, nil, ckp, &pa[c.Other()])
				chk += ck.safe(&h.any[c.Other()])
				d[mobSafeMg] += sign * float64(safe) * fm
				d[mobSafeEg] += sign * float64(safe) * fe
				d[checkMg] += sign * float64(chk) * fm
				d[checkEg] += sign * float64(chk) * fe
				d[mobilityMg] += sign * float64(n) * fm
				d[mobilityEg] += sign * float64(n) * fe
				g := dst[globalBase(e.v):]
				g[gKingAttMg] += sign * float64(att) * fm
				g[gKingAttEg] += sign * float64(att) * fe
			}
		}
		g := dst[globalBase(e.v):]
		var x termCounts
		e.countTerms(p, &pi, king, &h, &m, c, &x)
		for i, n := range x.n {
			g[gTerms+2*i] += sign * float64(n) * fm
			g[gTerms+2*i+1] += sign * float64(n) * fe
		}
		if e.pawn != 0 {
			own, opp := &pawns[c], &pawns[c.Other()]
			last := b.Ranks - 1
			for f := 0; f < b.Files; f++ {
				pf := own[f]
				if pf.n == 0 {
					continue
				}
				if pf.n > 1 {
					g[gDoubledMg] += sign * float64(pf.n-1) * fm
					g[gDoubledEg] += sign * float64(pf.n-1) * fe
				}
				if isolated(own, f, b.Files) {
					g[gIsolatedMg] += sign * fm
					g[gIsolatedEg] += sign * fe
				}
				if passed(own, opp, f, b.Files, last) {
					adv := float64(pf.max) / float64(max(1, last-1))
					g[gPassedMg] += sign * fm
					g[gPassedEg] += sign * fe
					g[gPassedAdvMg] += sign * adv * adv * fm
					g[gPassedAdvEg] += sign * adv * adv * fe
				}
			}
			if king[c] != geom.NoSquare {
				g[gShelter] += sign * float64(e.shieldPawns(own, king[c], c)) * fm
			}
			open, half := e.fileRiders(p, pawns, c)
			g[gOpenMg] += sign * float64(open) * fm
			g[gOpenEg] += sign * float64(open) * fe
			g[gHalfOpenMg] += sign * float64(half) * fm
			g[gHalfOpenEg] += sign * float64(half) * fe
		}
		pairs := float64(e.pairs(p, c))
		g[gPairMg] += sign * pairs * fm
		g[gPairEg] += sign * pairs * fe
		// As mopUp: at most one side has more material against a lone king.
		if o := c.Other(); nonRoyal[o] == 0 && mat[c] > mat[o] {
			if ks, ok := e.royalSquare(p, o); ok {
				g[gMopEdge] += sign * float64(e.center[ks])
				if own, ok := e.royalSquare(p, c); ok {
					dist := max(absInt(own.File()-ks.File()), absInt(own.Rank()-ks.Rank()))
					g[gMopNear] += sign * float64(16-dist)
				}
				g[gMopBox] += sign * float64(e.boxShrink(p, ks, c))
			}
		}
	}
	g := dst[globalBase(e.v):]
	if p.Turn() == rules.White {
		g[gTempo] = 1
	} else {
		g[gTempo] = -1
	}
	off := 0.0
	if e.terms != nil {
		tf := e.terms.TermFeatures(p)
		copy(dst[termBase(e.v):], tf[:len(e.termW)])
	} else if e.extra != nil {
		off = float64(e.extra.Eval(p))
		if p.Turn() == rules.Black {
			off = -off
		}
	}
	return off
}
