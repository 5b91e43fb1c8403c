package eval

import (
	"math"
	"math/bits"
	"sync/atomic"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// The pawn structure: what the evaluation computes from the pawns alone.
// Their files and the squares they attack are gathered by sets at each
// evaluation; the pawn-structure score, the pawn terms' counts and the
// passed files are kept in a table by a key of the pawns' squares, so
// that a structure met again is not scored again.

// pawnInfo is what depends on the pawns alone.
type pawnInfo struct {
	files  [2][geom.MaxFiles]pawnFile // each side's pawns by file
	set    [2]geom.Set                // each side's pawns
	att    [2]geom.Set                // the squares each side's pawns attack
	mg, eg [2]int                     // each side's pawnStructure
	// each side's pawns beside an own pawn on the same rank, and those an
	// own pawn defends (pawn.phalanx, pawn.supported)
	phalanx, supported [2]int
	passed             [2]uint16 // the files whose most advanced own pawn is passed
}

// pawnKeys are the random keys of a pawn by colour and square; a pawn
// structure's key is the xor of its pawns' keys.
var pawnKeys = func() (k [2][geom.Cells]uint64) {
	x := uint64(0x2545f4914f6cdd1d)
	for c := range k {
		for s := range k[c] {
			// splitmix64
			x += 0x9e3779b97f4a7c15
			z := x
			z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
			z = (z ^ z>>27) * 0x94d049bb133111eb
			k[c][s] = z ^ z>>31
		}
	}
	return k
}()

// addPawn puts c's pawn on s into pi's files and set.
func (e *Evaluator) addPawn(pi *pawnInfo, c rules.Color, s geom.Square) {
	pi.files[c][s.File()].add(e.relRank(c, s))
	pi.set[c].Add(s)
}

// pawnInfoOf completes pi, whose files and sets hold the pawns (addPawn),
// and whose key is key: their attacks, and the scores and counts from the
// table t when the key is there, else computed and kept in t.
func (e *Evaluator) pawnInfoOf(t *pawnTable, key uint64, pi *pawnInfo) {
	e.pawnAttacks(pi)
	if t.probe(key, pi) {
		return
	}
	e.pawnScores(pi)
	t.store(key, pi)
}

// pawnTableOf returns e's pawn table, made at the first call.
func (e *Evaluator) pawnTableOf() *pawnTable {
	if t := e.pawns.Load(); t != nil {
		return t
	}
	e.pawns.CompareAndSwap(nil, newPawnTable())
	return e.pawns.Load()
}

// pawnInfo computes pi from p's pawns.
func (e *Evaluator) pawnInfo(p *rules.Position, pi *pawnInfo) {
	*pi = pawnInfo{}
	if e.pawn == 0 {
		return
	}
	for c := rules.White; c <= rules.Black; c++ {
		for _, s := range p.Pieces(c) {
			if p.At(s).Type() == e.pawn {
				e.addPawn(pi, c, s)
			}
		}
	}
	e.pawnAttacks(pi)
	e.pawnScores(pi)
}

// pawnAttacks puts into pi.att the squares each side's pawns attack: the
// pawns' set moved by each of pawnCap's steps, on the board (the squares
// a walk pawn by pawn reaches that are not walls).
func (e *Evaluator) pawnAttacks(pi *pawnInfo) {
	for c := rules.White; c <= rules.Black; c++ {
		for _, pc := range e.pawnCap[c] {
			shiftOr(&pi.att[c], &pi.set[c], pc.off, e.words)
		}
		for i := e.words[0]; i < e.words[1]; i++ {
			pi.att[c][i] &= e.onBoard[i]
		}
	}
}

// shiftOr adds to dst the squares of src moved by the mailbox offset off,
// in the words in [words[0], words[1]) (those of the board, boardWords):
// an offset of at most geom.MaxLeap files and ranks moves a square by
// less than two words, and a set has two words below the board's and two
// above.
func shiftOr(dst, src *geom.Set, off int, words [2]int) {
	if off >= 0 {
		w, b := off/64, uint(off%64)
		for i := words[0]; i < words[1]; i++ {
			dst[i] |= src[i-w]<<b | src[i-w-1]>>(64-b)
		}
		return
	}
	w, b := -off/64, uint(-off%64)
	for i := words[0]; i < words[1]; i++ {
		dst[i] |= src[i+w]>>b | src[i+w+1]<<(64-b)
	}
}

// pawnScores puts into pi the pawn structure's scores (pawnStructure),
// the counts of the pawn terms and the passed files, from pi's files,
// sets and attacks.
func (e *Evaluator) pawnScores(pi *pawnInfo) {
	files, last := e.files, e.ranks-1
	for c := rules.White; c <= rules.Black; c++ {
		pi.mg[c], pi.eg[c] = e.pawnStructure(&pi.files, c)
		for i := e.words[0]; i < e.words[1]; i++ {
			w := pi.set[c][i]
			// beside on the same rank (a shift by one square moves none
			// onto another row's: the padding lies between the rows)
			pi.phalanx[c] += bits.OnesCount64(w & (w<<1 | w>>1))
			pi.supported[c] += bits.OnesCount64(w & pi.att[c][i])
		}
		for f := 0; f < files; f++ {
			if pi.files[c][f].n > 0 && passed(&pi.files[c], &pi.files[c.Other()], f, files, last) {
				pi.passed[c] |= 1 << f
			}
		}
	}
}

// pawnHits puts into h what the pawns attack, as hitFrom would put it
// (when the pawns' capturing rays are the single steps of pawnCap:
// e.pawnStep): every square of pi.att, and of the enemy's pieces there
// that are not royal (m) those that are not pawns (the royal pieces are
// not among those countTerms counts).
func (e *Evaluator) pawnHits(pi *pawnInfo, m *men, h *hits) {
	for c := rules.White; c <= rules.Black; c++ {
		o := c.Other()
		for i := e.words[0]; i < e.words[1]; i++ {
			h.any[c][i] |= pi.att[c][i]
			h.pawn[c][i] |= pi.att[c][i] & m.nonRoyal[o][i] &^ pi.set[o][i]
		}
	}
}

// pawnValid is xored into a pawn table entry's check, so that an empty
// entry holds no key.
const pawnValid = 0x6a09e667f3bcc908

// pawnTableBits is the log2 of the number of entries of a pawn table (24
// bytes each: a table of 384 KiB).
const pawnTableBits = 14

// pawnTable keeps the pawn structure's scores and counts (pawnScores) by
// the pawns' key. The threads of a search share it without locks: an
// entry's check is the key xor its two data words, so that an entry half
// written by another thread fails it.
type pawnTable struct {
	entries []pawnEntry
}

// pawnEntry is one structure's scores and counts, packed (pack), and its
// check.
type pawnEntry struct {
	scores, counts, check atomic.Uint64
}

func newPawnTable() *pawnTable {
	return &pawnTable{entries: make([]pawnEntry, 1<<pawnTableBits)}
}

// probe puts into pi the scores and counts kept for key, if there are.
func (t *pawnTable) probe(key uint64, pi *pawnInfo) bool {
	en := &t.entries[key&(1<<pawnTableBits-1)]
	s, n := en.scores.Load(), en.counts.Load()
	if en.check.Load() != key^pawnValid^s^n {
		return false
	}
	unpack(s, n, pi)
	return true
}

// store keeps pi's scores and counts for key in place of what its entry
// held, when pack can hold them.
func (t *pawnTable) store(key uint64, pi *pawnInfo) {
	s, n, ok := pack(pi)
	if !ok {
		return
	}
	en := &t.entries[key&(1<<pawnTableBits-1)]
	en.scores.Store(s)
	en.counts.Store(n)
	en.check.Store(key ^ pawnValid ^ s ^ n)
}

// pack returns pi's scores (16 bits each) and counts (8 bits each, then
// the passed files in 16 bits a side), or false where one does not fit.
func pack(pi *pawnInfo) (scores, counts uint64, ok bool) {
	for i, v := range [4]int{pi.mg[0], pi.eg[0], pi.mg[1], pi.eg[1]} {
		if v != int(int16(v)) {
			return 0, 0, false
		}
		scores |= uint64(uint16(int16(v))) << (16 * i)
	}
	for i, v := range [4]int{pi.phalanx[0], pi.supported[0], pi.phalanx[1], pi.supported[1]} {
		if v > math.MaxUint8 {
			return 0, 0, false
		}
		counts |= uint64(v) << (8 * i)
	}
	counts |= uint64(pi.passed[0])<<32 | uint64(pi.passed[1])<<48
	return scores, counts, true
}

// unpack puts into pi what pack packed.
func unpack(scores, counts uint64, pi *pawnInfo) {
	pi.mg[0], pi.eg[0] = int(int16(scores)), int(int16(scores>>16))
	pi.mg[1], pi.eg[1] = int(int16(scores>>32)), int(int16(scores>>48))
	pi.phalanx[0], pi.supported[0] = int(uint8(counts)), int(uint8(counts>>8))
	pi.phalanx[1], pi.supported[1] = int(uint8(counts>>16)), int(uint8(counts>>24))
	pi.passed[0], pi.passed[1] = uint16(counts>>32), uint16(counts>>48)
}
