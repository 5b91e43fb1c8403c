package crazy

import (
	"math/bits"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// MaxPieces is the most pieces a position may hold (passengers included).
// It bounds the height of a stack, so stacks are fixed arrays.
const MaxPieces = 32

// Piece attribute bits. A risen Bishop carries attrRisen (hashed, written
// "B*"); attrRose marks a Bishop that rose during the move being made and
// is cleared at the end of that turn (CC-40), so no finished position has
// it.
const (
	attrRisen uint16 = 1
	attrRose  uint16 = 2
)

// none is the immuneSide value "nobody" and a missing square index.
const none = -1

// vals are the scalar fields of the state: everything the FEN carries beyond
// board and counters, and the denial bookkeeping.
type vals struct {
	holder rules.Color // denialHolder
	immune int8        // immuneSide: none, or the colour whose next move may not be denied
	used   uint16      // denialsUsed
	castle uint8       // rights: 1 K, 2 Q, 4 k, 8 q
	epJump int8        // the en-passant record: jumped-over square, or none
	epPawn int8        // and the square of the pawn that double-stepped
	denied rules.Move  // after a denial: the move the replacement must differ from
	drawn  bool        // a CC-12 draw was claimed
}

// change is one entry of the undo log: square b, stack index i (255: the
// height) and the value before the change.
type change struct {
	b, i uint8
	old  rules.Piece
}

const heightIndex = 255

// frame is what a move made through the position (Make) leaves for its
// Unmake and for a later denial of it.
type frame struct {
	move     rules.Move
	mover    rules.Color
	kind     uint8 // the move's sub-kind (kPiece...)
	logMark  int   // len(log) before the move
	remMark  int   // len(rem) before the move
	before   vals  // the scalars before the move
	phash    uint64
	prevHash uint64 // the position key before the move
	halfmove int    // the core's counters before the move
	ply      int
	immune   bool // the move cannot be denied: the mover was immuneSide, or a knight move (CC-7)
}

// Cause says how a piece left the board.
type Cause uint8

// The causes of a removal.
const (
	Captured    Cause = iota // a capture: by a move, a fall, a rise, an all-round capture or revenge
	SelfCapture              // a lone pawn on its own first row at the end of a turn (CC-39)
	Vanished                 // a risen Bishop at the end of its owner's turn (CC-40)
)

// Removal is one piece taken off the board by a move.
type Removal struct {
	Square geom.Square
	Piece  rules.Piece
	Cause  Cause
}

// state is the Crazy Chess variant state. cells holds every stack bottom to
// top; cells[b][0] is always the piece the core board holds on that square
// (the base), so the core, the evaluation and the search see the material.
// Passengers live only here. The state keeps its own undo log: every change
// of a cell is logged, and a move's frame marks where its changes begin.
type state struct {
	cells  [64][MaxPieces]rules.Piece
	height [64]uint8
	v      vals
	phash  uint64 // Zobrist key of the passengers

	// An index of the cells, kept with every change (sync): how many
	// pieces of each colour and type stand on each square, passengers
	// included, the squares where at least one does, and the number of
	// risen Bishops. Hooks find Kings, Queens and movers by it instead of
	// scanning the board.
	count [2][maxType + 1][64]uint8
	occ   [2][maxType + 1]uint64
	risen int

	// trial counts the marks (save) not yet rolled back: while one is
	// open, changes are a trial that rollback takes back, and they touch
	// only the cells and their index, not the core board nor the
	// passenger key (nothing reads them before the rollback).
	trial int

	log    []change
	frames []frame
	rem    []Removal

	z  *crazy   // the rules the state was made under
	sc *scratch // working memory, not part of the position (not cloned)
}

// Clone returns a deep copy of the state without its working memory.
func (s *state) Clone() rules.State {
	c := *s
	c.log = append([]change(nil), s.log...)
	c.frames = append([]frame(nil), s.frames...)
	c.rem = append([]Removal(nil), s.rem...)
	c.sc = nil
	return &c
}

// Hash returns the key of everything the core does not hash: passengers,
// the scalar fields and, when the last move can be denied, the position a
// denial would return to. The default state of the start position (Black
// holds the right, all castling rights, nothing else) hashes to 0, like a
// position without state.
func (s *state) Hash() uint64 {
	h := s.phash ^ valsKey(&s.v)
	if n := len(s.frames); n > 0 {
		if f := &s.frames[n-1]; s.deniable(f) {
			h ^= rules.Mix64(keyDeny ^ f.prevHash)
		}
	}
	return h
}

// String returns the three fields Crazy-FEN adds to FEN: denial holder,
// immune side and denials used.
func (s *state) String() string { return vFields(&s.v) }

// Key constants for the scalar fields.
const (
	keyPassenger = 0x9d3c_71a0_5e2b_0000
	keyHolder    = 0x51f0_3c9e_a7d2_6b11
	keyImmune    = 0x2e8b_c4f1_0973_5ad2
	keyUsed      = 0x6c1a_9f27_e3b8_4d03
	keyCastle    = 0x7b42_05d9_c16e_a8f4
	keyEP        = 0x38e9_6a1f_d524_b705
	keyDenied    = 0x4fa7_e238_9b0c_61d6
	keyDrawn     = 0x13c8_5b6e_f29a_07e7
	keyDeny      = 0x0a5d_f61b_3e87_c9f8
)

// pkey is the key of passenger pc at index i of square b.
func pkey(b, i int, pc rules.Piece) uint64 {
	return rules.Mix64(keyPassenger ^ uint64(pc) ^ uint64(b)<<40 ^ uint64(i)<<48)
}

// valsKey hashes the scalars; each field at its start value adds nothing.
func valsKey(v *vals) uint64 {
	var h uint64
	if v.holder != rules.Black {
		h ^= keyHolder
	}
	if v.immune != none {
		h ^= rules.Mix64(keyImmune + uint64(v.immune))
	}
	if v.used != 0 {
		h ^= rules.Mix64(keyUsed + uint64(v.used))
	}
	if v.castle != 15 {
		h ^= rules.Mix64(keyCastle + uint64(v.castle))
	}
	if v.epJump != none {
		h ^= rules.Mix64(keyEP + uint64(v.epJump)<<8 + uint64(v.epPawn))
	}
	if v.denied != rules.NoMove {
		h ^= rules.Mix64(keyDenied ^ uint64(v.denied))
	}
	if v.drawn {
		h ^= keyDrawn
	}
	return h
}

// deniable reports whether the move of frame f may be denied as far as the
// state tells (CC-5, CC-9): a real move, not immune, with the right held by
// the mover's opponent. The denial mode, the game's end and the option
// DenyLastMoveAllowed are the generator's to check.
func (s *state) deniable(f *frame) bool {
	if f.kind == kDeny || f.kind == kDraw || f.immune {
		return false
	}
	return s.v.holder == f.mover.Other() && !s.v.drawn
}

// defaultVals are the scalars of a game's start.
func defaultVals() vals {
	return vals{holder: rules.Black, immune: none, castle: 15, epJump: none, epPawn: none}
}

// board is the geometry of the 8x8 board.
var board = geom.Board{Files: 8, Ranks: 8}

// sqOf returns the square of board index b (rank*8+file).
func sqOf(b int) geom.Square { return geom.Sq(b&7, b>>3) }

// idxOf returns the board index of square s.
func idxOf(s geom.Square) int { return s.Rank()*8 + s.File() }

// set changes one cell and logs it. A base is mirrored on the core board
// (Remove and Put keep the core's hash); a change of the base on a castling
// square costs the rights that depend on it (CC-38).
func (s *state) set(p *rules.Position, b, i int, pc rules.Piece) {
	old := s.cells[b][i]
	if old == pc {
		return
	}
	s.log = append(s.log, change{b: uint8(b), i: uint8(i), old: old})
	s.cells[b][i] = pc
	s.sync(p, b, i, old, pc)
	if i == 0 {
		s.v.castle &^= castleLoss[b]
	}
}

// sync reflects a cell change on the core board or in the passenger key,
// and in the index of the cells.
func (s *state) sync(p *rules.Position, b, i int, old, pc rules.Piece) {
	if old != rules.Empty {
		s.unindex(b, old)
	}
	if pc != rules.Empty {
		s.index(b, pc)
	}
	if s.trial > 0 {
		return // a trial: rollback restores the passenger key, the core board is not touched
	}
	if i == 0 {
		sq := sqOf(b)
		if old != rules.Empty {
			p.Remove(sq)
		}
		if pc != rules.Empty {
			p.Put(sq, pc)
		}
		return
	}
	if old != rules.Empty {
		s.phash ^= pkey(b, i, old)
	}
	if pc != rules.Empty {
		s.phash ^= pkey(b, i, pc)
	}
}

// maxType bounds the piece types of the index (Crazy Chess has six).
const maxType = 7

// index counts pc on square b in the index of the cells.
func (s *state) index(b int, pc rules.Piece) {
	c, t := pc.Color(), pc.Type()&maxType
	s.count[c][t][b]++
	s.occ[c][t] |= 1 << b
	if pc.Attr()&attrRisen != 0 {
		s.risen++
	}
}

// unindex takes pc on square b out of the index of the cells.
func (s *state) unindex(b int, pc rules.Piece) {
	c, t := pc.Color(), pc.Type()&maxType
	if s.count[c][t][b]--; s.count[c][t][b] == 0 {
		s.occ[c][t] &^= 1 << b
	}
	if pc.Attr()&attrRisen != 0 {
		s.risen--
	}
}

// reindex builds the index of the cells from scratch.
func (s *state) reindex() {
	s.count, s.occ, s.risen = [2][maxType + 1][64]uint8{}, [2][maxType + 1]uint64{}, 0
	for b := range 64 {
		for _, pc := range s.cells[b][:s.height[b]] {
			s.index(b, pc)
		}
	}
}

// pieces returns the squares holding a piece of colour c, passengers
// included.
func (s *state) pieces(c rules.Color) uint64 {
	var m uint64
	for _, o := range s.occ[c] {
		m |= o
	}
	return m
}

// setHeight changes the height of square b and logs it.
func (s *state) setHeight(b, h int) {
	s.log = append(s.log, change{b: uint8(b), i: heightIndex, old: rules.Piece(s.height[b])})
	s.height[b] = uint8(h)
}

// undoTo takes back the logged changes down to mark.
func (s *state) undoTo(p *rules.Position, mark int) {
	for n := len(s.log) - 1; n >= mark; n-- {
		c := s.log[n]
		b := int(c.b)
		if c.i == heightIndex {
			s.height[b] = uint8(c.old)
			continue
		}
		cur := s.cells[b][c.i]
		s.cells[b][c.i] = c.old
		s.sync(p, b, int(c.i), cur, c.old)
	}
	s.log = s.log[:mark]
}

// push puts pc on top of square b.
func (s *state) push(p *rules.Position, b int, pc rules.Piece) {
	h := int(s.height[b])
	s.set(p, b, h, pc)
	s.setHeight(b, h+1)
}

// place puts pieces, bottom first, on top of square b.
func (s *state) place(p *rules.Position, b int, pieces []rules.Piece) {
	for _, pc := range pieces {
		s.push(p, b, pc)
	}
}

// removeAt takes the piece at index i off square b; the pieces above move
// down one place.
func (s *state) removeAt(p *rules.Position, b, i int) rules.Piece {
	pc := s.cells[b][i]
	h := int(s.height[b])
	for j := i; j < h-1; j++ {
		s.set(p, b, j, s.cells[b][j+1])
	}
	s.set(p, b, h-1, rules.Empty)
	s.setHeight(b, h-1)
	return pc
}

// take removes the pieces from index i up off square b and appends them,
// bottom first, to dst.
func (s *state) take(p *rules.Position, b, i int, dst []rules.Piece) []rules.Piece {
	h := int(s.height[b])
	dst = append(dst, s.cells[b][i:h]...)
	for j := h - 1; j >= i; j-- {
		s.set(p, b, j, rules.Empty)
	}
	s.setHeight(b, i)
	return dst
}

// castleLoss holds, by board index, the castling rights that depend on
// the base of the square: the king's home costs both of its side's, a
// rook's corner one (castleSquares).
var castleLoss = func() (loss [64]uint8) {
	for c := rules.White; c <= rules.Black; c++ {
		for _, long := range [2]bool{false, true} {
			home, corner, _, _, _, _ := castleSquares(c, long)
			loss[home] |= castleBit(c, long)
			loss[corner] |= castleBit(c, long)
		}
	}
	return loss
}()

// kingIndex returns the stack index of king (a King piece of one colour)
// on square b, or none.
func (s *state) kingIndex(b int, king rules.Piece) int {
	for i := int(s.height[b]) - 1; i >= 0; i-- {
		if s.cells[b][i] == king {
			return i
		}
	}
	return none
}

// findKing returns the square of c's King (of piece type king), or none;
// the first in board order if there were several.
func (s *state) findKing(c rules.Color, king rules.Type) int {
	if m := s.occ[c][king&maxType]; m != 0 {
		return bits.TrailingZeros64(m)
	}
	return none
}

// mark is a point to roll the state back to: the log, the removals, the
// scalars and the passenger key.
type mark struct {
	log, rem int
	v        vals
	phash    uint64
}

// save returns a mark for rollback and opens a trial: until the rollback,
// changes touch only the cells and their index (the core board and the
// passenger key stay as they are). Every save is paired with a rollback.
func (s *state) save() mark {
	s.trial++
	return mark{log: len(s.log), rem: len(s.rem), v: s.v, phash: s.phash}
}

// rollback returns the state to m and closes its trial.
func (s *state) rollback(p *rules.Position, m mark) {
	s.undoTo(p, m.log)
	s.rem = s.rem[:m.rem]
	s.v = m.v
	s.phash = m.phash
	s.trial--
}

// fromBoard builds the state of a position the core made without the
// variant's help (the compiled start position): every piece a base, Black
// holding the right, castling rights for each king and rook still on their
// first squares.
func fromBoard(p *rules.Position) *state {
	s := &state{v: defaultVals()}
	for b := range 64 {
		if pc := p.At(sqOf(b)); pc.IsPiece() {
			s.cells[b][0] = pc
			s.height[b] = 1
		}
	}
	s.reindex()
	s.v.castle = 0
	v := p.Variant()
	k, r := v.TypeOf('K'), v.TypeOf('R')
	for c := rules.White; c <= rules.Black; c++ {
		for _, long := range [2]bool{false, true} {
			home, corner, _, _, _, _ := castleSquares(c, long)
			if s.cells[home][0] == rules.MakePiece(c, k) && s.cells[corner][0] == rules.MakePiece(c, r) {
				s.v.castle |= castleBit(c, long)
			}
		}
	}
	return s
}

// stateOf returns the position's state, attaching a new one built from the
// board if it has none. Only hooks that may change the position call it.
func stateOf(p *rules.Position) *state {
	if s, ok := p.State().(*state); ok {
		return s
	}
	s := fromBoard(p)
	p.SetState(s)
	return s
}

// view returns the position's state for reading; a position without one
// gets a fresh state that is not attached (the variant's shared start
// position must not change).
func view(p *rules.Position) *state {
	if s, ok := p.State().(*state); ok {
		return s
	}
	return fromBoard(p)
}
