package rules

import (
	"fmt"

	"github.com/anychess/anychess/geom"
)

// Color is a side: White or Black.
type Color uint8

// The two sides. White moves first.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Letter returns the FEN letter of c: 'w' or 'b'.
func (c Color) Letter() byte {
	if c == White {
		return 'w'
	}
	return 'b'
}

// Type is the index of a piece type in its variant, from 1 to MaxTypes. The
// zero Type means no piece.
type Type uint8

// MaxTypes is the largest number of piece types one variant may have.
const MaxTypes = 63

// Piece is the content of one board cell, packed as
//
//	bit  0     white piece
//	bit  1     black piece
//	bit  2     wall: outside the board, or a hole
//	bits 3-8   piece type (1..63)
//	bit  9     promoted: the piece was a pawn (kept only where captures
//	           go to hand, where a promoted piece is taken as a pawn)
//	bits 16-31 attribute: a per-piece value that travels with the piece
//	           (Vazir's rank; 0 for variants without attributes)
//
// The zero Piece is an empty square. A wall has no colour bit, so testing a
// cell against a colour mask never mistakes a wall for a piece.
type Piece uint32

// Cell values and masks.
const (
	Empty Piece = 0
	Wall  Piece = 4

	colorBits Piece = 3
	typeShift       = 3
	typeMask  Piece = 63 << typeShift
	promoted  Piece = 1 << 9
	attrShift       = 16
)

// MakePiece returns a piece of colour c and type t without attribute.
func MakePiece(c Color, t Type) Piece { return Piece(1)<<c | Piece(t)<<typeShift }

// Color returns the colour of a piece (meaningless for Empty and Wall).
func (p Piece) Color() Color { return Color(p >> 1 & 1) }

// Type returns the type of a piece, or 0 for Empty and Wall.
func (p Piece) Type() Type { return Type(p & typeMask >> typeShift) }

// Attr returns the attribute of a piece.
func (p Piece) Attr() uint16 { return uint16(p >> attrShift) }

// WithAttr returns p with its attribute set to a.
func (p Piece) WithAttr(a uint16) Piece { return p&0xFFFF | Piece(a)<<attrShift }

// Promoted reports whether p is a promoted pawn, in a variant where
// captures go to hand (Spec.CapturesToHand): taken, it goes to the
// capturer's hand as a pawn. Elsewhere no piece is marked.
func (p Piece) Promoted() bool { return p&promoted != 0 }

// IsPiece reports whether p is a piece (not Empty, not Wall).
func (p Piece) IsPiece() bool { return p&colorBits != 0 }

// colorBit returns the bit that marks pieces of colour c.
func colorBit(c Color) Piece { return Piece(1) << c }

// MoveKind says how a move changes the board beyond moving one piece.
type MoveKind uint8

// The kinds of move.
const (
	Normal    MoveKind = iota // a piece moves, capturing what stands on the target
	Promotion                 // as Normal, and the piece becomes Move.Promo()
	EnPassant                 // a pawn captures the pawn on Move.Aux()
	Castle                    // the king goes to To, the rook on Aux to its castling square
	Drop                      // a piece of type Move.Promo() from the reserve is put on To
	Special                   // a variant move; its meaning is in Payload and the variant's hooks
)

// Move is a packed move. Bit layout:
//
//	bits  0-9   from square (mailbox index; 0 for drops)
//	bits 10-19  to square
//	bits 20-23  kind (MoveKind)
//	bits 24-29  piece type: promotion or dropped type
//	bits 30-39  auxiliary square: castling rook, en-passant victim
//	bits 40-63  variant payload (24 bits) for Special moves and hooks
//
// The zero Move is NoMove.
type Move uint64

// NoMove is the zero Move; no legal move equals it.
const NoMove Move = 0

// NewMove returns a move of the given kind.
func NewMove(from, to geom.Square, kind MoveKind) Move {
	return Move(from) | Move(to)<<10 | Move(kind)<<20
}

// From returns the origin square.
func (m Move) From() geom.Square { return geom.Square(m & 0x3FF) }

// To returns the target square.
func (m Move) To() geom.Square { return geom.Square(m >> 10 & 0x3FF) }

// Kind returns the kind of the move.
func (m Move) Kind() MoveKind { return MoveKind(m >> 20 & 0xF) }

// Promo returns the promotion or drop type, or 0.
func (m Move) Promo() Type { return Type(m >> 24 & 0x3F) }

// Aux returns the auxiliary square (castling rook, en-passant victim).
func (m Move) Aux() geom.Square { return geom.Square(m >> 30 & 0x3FF) }

// Payload returns the variant payload.
func (m Move) Payload() uint32 { return uint32(m >> 40) }

// WithPromo returns m with promotion or drop type t.
func (m Move) WithPromo(t Type) Move { return m&^(0x3F<<24) | Move(t)<<24 }

// WithAux returns m with auxiliary square s.
func (m Move) WithAux(s geom.Square) Move { return m&^(0x3FF<<30) | Move(s)<<30 }

// WithPayload returns m with a variant payload (24 bits are kept).
func (m Move) WithPayload(x uint32) Move { return m&(1<<40-1) | Move(x&0xFFFFFF)<<40 }

// GoString describes the move's fields, for debugging.
func (m Move) GoString() string {
	return fmt.Sprintf("Move{%v-%v kind %d promo %d aux %v payload %d}", m.From(), m.To(), m.Kind(), m.Promo(), m.Aux(), m.Payload())
}

// Result is the result of a game.
type Result uint8

// The results. Ongoing means the game goes on.
const (
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
)

// String returns the PGN form of the result: "1-0", "0-1", "1/2-1/2" or "*".
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Win returns the result in which c wins.
func Win(c Color) Result {
	if c == White {
		return WhiteWins
	}
	return BlackWins
}

// Reason says why a game ended.
type Reason string

// The reasons a game can end by rule.
const (
	ReasonNone       Reason = ""
	ReasonCheckmate  Reason = "checkmate"
	ReasonStalemate  Reason = "stalemate"
	ReasonBareKing   Reason = "bare king"
	ReasonDead       Reason = "insufficient material"
	ReasonNMoveRule  Reason = "move rule"
	ReasonRepetition Reason = "repetition"
	ReasonMoveCap    Reason = "move limit"
	ReasonNoRoyal    Reason = "royal captured"
	ReasonVariant    Reason = "variant rule"
)

// Status is the state of a game: its result and the reason for it.
type Status struct {
	Result Result
	Reason Reason
	Detail string // a human-readable sentence, e.g. "white is checkmated"
}

// Over reports whether the game has ended.
func (s Status) Over() bool { return s.Result != Ongoing }

// String returns the result, and the reason if the game is over.
func (s Status) String() string {
	if !s.Over() {
		return "ongoing"
	}
	if s.Detail != "" {
		return s.Result.String() + " (" + s.Detail + ")"
	}
	return s.Result.String() + " (" + string(s.Reason) + ")"
}
