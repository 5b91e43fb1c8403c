package crazy

import (
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// Every Crazy Chess move is a rules.Special move. From and To are real
// squares (the mover's origin and its final square; the queen's square for
// an all-round capture; the disguised piece's square for a disguise; none
// for DENY and DRAW). The other 40 bits (promotion type, auxiliary square
// and payload of rules.Move) hold the rest, as one number x:
//
//	bits 0-2    sub-kind: kPiece, kKing, kCastle, kAround, kDisguise, kDeny, kDraw
//	bits 3-7    stack index of the mover on its origin (0 = base)
//
//	kPiece (queen, rook, bishop, knight and pawn moves):
//	bits 8-9    separator: sepMove, sepCapture, sepEnter, sepEP
//	bits 10-14  stack index of the captured passenger on To (knights)
//	bit  15     a path capture follows (knights)
//	bits 16-21  path square (0..63, rank*8+file)
//	bits 22-26  stack index of the captured piece on the path square
//	bits 27-38  promotion choices, 2 bits each (6 choices)
//
//	kKing / kCastle (the king's two steps):
//	bits 8-13   square of step 1 (kKing)
//	bits 14-15  separator of step 1 (kKing)
//	bits 16-17  separator of step 2; sepNone: no step 2 (only when step 1
//	            removed the king under KingStep1Immunity=None)
//	bit  18     queenside castling (kCastle)
//	bits 19-38  promotion choices (10)
//
//	kAround: bits 8-39 promotion choices (16)
//
//	kDisguise:
//	bits 8-12   stack index of the disguised piece on To
//	bits 13-36  the chain: 8 links of 3 bits, each the 1-based place of
//	            the next pawn in the list of candidates (disguiseCandidates),
//	            0 ending the chain; so a chain has at most 9 pawns and each
//	            link chooses among at most 7 candidates
//	bits 37-38  promotion choice (1)
//
// A promotion choice is 0 queen, 1 rook, 2 bishop, 3 knight, for the
// mover's pawns that promote at the end of the turn (CC-41), in the order of
// their squares (a1, b1, ..., h8). Pawns beyond the choices a kind holds
// become queens. Unused bits are 0, so every move has one value.

// Sub-kinds.
const (
	kPiece    = 1
	kKing     = 2
	kCastle   = 3
	kAround   = 4
	kDisguise = 5
	kDeny     = 6
	kDraw     = 7
)

// Separators: how a move or step ends on its square.
const (
	sepMove    = 0 // to an empty square
	sepCapture = 1 // capturing the base (or a passenger, knights)
	sepEnter   = 2 // entering the rook on the square
	sepEP      = 3 // an en-passant capture (pawn moves)
	sepNone    = 3 // no second step (king moves)
)

// maxLinks is the most pawns that may follow the first one in a chain
// disguise, and maxCandidates the most candidates one link can choose from.
const (
	maxLinks      = 8
	maxCandidates = 7
)

// promoField returns where the promotion choices of a sub-kind start and
// how many it holds.
func promoField(kind uint8) (shift uint, n int) {
	switch kind {
	case kPiece:
		return 27, 6
	case kKing, kCastle:
		return 19, 10
	case kAround:
		return 8, 16
	case kDisguise:
		return 37, 1
	}
	return 0, 0
}

// mv is a decoded move.
type mv struct {
	kind     uint8
	from, to int // board indices; none for DENY and DRAW
	fromIdx  int

	sep     uint8 // kPiece
	toIdx   int   // kPiece: captured passenger; kDisguise: disguised piece
	path    int   // kPiece: path-capture square, or none
	pathIdx int

	step1 int   // kKing
	sep1  uint8 // kKing
	sep2  uint8 // kKing, kCastle
	long  bool  // kCastle: queenside

	links [maxLinks]uint8 // kDisguise
	promo uint32          // promotion choices, 2 bits each
}

// encode packs d into a Move.
func encode(d *mv) rules.Move {
	x := uint64(d.kind) | uint64(d.fromIdx)<<3
	switch d.kind {
	case kPiece:
		x |= uint64(d.sep)<<8 | uint64(d.toIdx)<<10
		if d.path != none {
			x |= 1<<15 | uint64(d.path)<<16 | uint64(d.pathIdx)<<22
		}
	case kKing:
		x |= uint64(d.step1)<<8 | uint64(d.sep1)<<14 | uint64(d.sep2)<<16
	case kCastle:
		x |= uint64(d.sep2) << 16
		if d.long {
			x |= 1 << 18
		}
	case kDisguise:
		x |= uint64(d.toIdx) << 8
		for i, l := range d.links {
			x |= uint64(l) << (13 + 3*uint(i))
		}
	}
	if shift, _ := promoField(d.kind); shift > 0 {
		x |= uint64(d.promo) << shift
	}
	from, to := geom.NoSquare, geom.NoSquare
	if d.from != none {
		from = sqOf(d.from)
	}
	if d.to != none {
		to = sqOf(d.to)
	}
	return rules.NewMove(from, to, rules.Special).
		WithPromo(rules.Type(x & 63)).
		WithAux(geom.Square(x >> 6 & 1023)).
		WithPayload(uint32(x >> 16))
}

// denyMove and drawMove are DENY and DRAW: they have no squares.
var (
	denyMove = encode(&mv{kind: kDeny, from: none, to: none, path: none})
	drawMove = encode(&mv{kind: kDraw, from: none, to: none, path: none})
)

// extra returns the 40 bits of m beyond from, to and kind.
func extra(m rules.Move) uint64 {
	return uint64(m.Promo()) | uint64(m.Aux())<<6 | uint64(m.Payload())<<16
}

// decode unpacks m. ok is false for a move that is not a well-formed
// Crazy Chess move (a caller's bad input; generated moves always are).
func decode(m rules.Move) (d mv, ok bool) {
	if m.Kind() != rules.Special {
		return d, false
	}
	x := extra(m)
	d.kind = uint8(x & 7)
	d.fromIdx = int(x >> 3 & 31)
	d.path = none
	d.from, d.to = none, none
	if m.From() != geom.NoSquare {
		if !board.OnGrid(m.From()) {
			return d, false
		}
		d.from = idxOf(m.From())
	}
	if m.To() != geom.NoSquare {
		if !board.OnGrid(m.To()) {
			return d, false
		}
		d.to = idxOf(m.To())
	}
	switch d.kind {
	case kPiece:
		d.sep = uint8(x >> 8 & 3)
		d.toIdx = int(x >> 10 & 31)
		if x>>15&1 != 0 {
			d.path = int(x >> 16 & 63)
			d.pathIdx = int(x >> 22 & 31)
		}
	case kKing:
		d.step1 = int(x >> 8 & 63)
		d.sep1 = uint8(x >> 14 & 3)
		d.sep2 = uint8(x >> 16 & 3)
	case kCastle:
		d.sep2 = uint8(x >> 16 & 3)
		d.long = x>>18&1 != 0
	case kDisguise:
		d.toIdx = int(x >> 8 & 31)
		for i := range d.links {
			d.links[i] = uint8(x >> (13 + 3*uint(i)) & 7)
		}
	case kAround:
	case kDeny, kDraw:
		return d, d.from == none && d.to == none
	default:
		return d, false
	}
	if d.from == none || d.to == none {
		return d, false
	}
	shift, n := promoField(d.kind)
	d.promo = uint32(x >> shift & (1<<(2*uint(n)) - 1))
	return d, true
}

// choice returns promotion choice k of d (0 queen .. 3 knight); pawns
// beyond the kind's choices become queens.
func (d *mv) choice(k int) uint8 {
	if _, n := promoField(d.kind); k >= n {
		return 0
	}
	return uint8(d.promo >> (2 * uint(k)) & 3)
}

// isKing reports whether m is a king move (castling included), which Soft
// denial never denies.
func isKing(kind uint8) bool { return kind == kKing || kind == kCastle }
