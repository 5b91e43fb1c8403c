package rules

import "github.com/anychess/anychess/geom"

// Spec declares a variant: geometry and pieces as data, the common rules as
// parameters, and an optional object (Ext) with the rules that data cannot
// express.
// Compile checks a Spec and turns it into a playable *Variant. The variant
// package reads Specs from text files; see its documentation for the format.
type Spec struct {
	Name        string   // registry key and protocol name, e.g. "greatshatranj"
	Aliases     []string // other accepted names
	Title       string   // display name, e.g. "Great Shatranj"
	Description string   // a short summary of the rules for people
	// PGNName is the Variant tag of the variant's game records where other
	// PGN tools name it otherwise ("Chess960"); "": Name.
	PGNName string

	Files, Ranks int      // board size
	Holes        geom.Set // squares no piece may enter

	Pieces []PieceSpec
	Start  string // start position in FEN

	Pawn      PawnSpec
	Promotion PromotionSpec
	Castling  CastlingSpec
	Drops     bool // pieces in reserve may be dropped on any empty square
	// ImmobileIllegal forbids a piece to move without promoting, or to be
	// dropped, to a square from which its movement could never take it
	// anywhere (the shogi pawn and lance on the last rank, the knight on
	// the last two).
	ImmobileIllegal bool
	// DropNoDoubled lists letters of types that may not be dropped on a
	// file where the side has one of that type already (shogi's pawn);
	// DropMateIllegal those whose drop may not checkmate: as
	// Fairy-Stockfish judges it, such a drop is a legal move, and the
	// checkmate it gives is a win for the side checkmated.
	DropNoDoubled, DropMateIllegal string
	// FlyingRoyals forbids royal pieces of the two sides to face each
	// other on a file with nothing between (xiangqi's flying general): a
	// royal piece attacks along its file up to the first piece.
	FlyingRoyals bool
	// CapturesToHand puts every captured piece in the capturer's reserve
	// (crazyhouse), a promoted pawn as a pawn. It needs Drops. Promoted
	// pieces are then marked (Piece.Promoted) and FEN writes them with a
	// "~" after the letter, as Fairy-Stockfish does ("Q~").
	CapturesToHand bool
	End            EndSpec

	// Ranked says that every piece carries a rank 0..9 in its attribute
	// (Vazir); boards and move lists show it after the letter.
	Ranked bool

	// Weights are the engine evaluation's named weights learned for this
	// variant (package eval documents the names); nil keeps the hand-set
	// evaluation. The rules do not read them.
	Weights map[string]float64

	// Network is a network file (eval.ReadNetwork) whose output corrects
	// the evaluation with Weights, or nil. It belongs to those weights:
	// Variant.WithWeights drops it. The rules do not read it.
	Network []byte

	// Ext is the variant's own rules object, for rules that data cannot
	// express: its methods implement some of the optional interfaces
	// Generator, LegalJudge, Unlister, SpecialMover, AfterMover,
	// Randomizer, Ender, Checker, BareJudge, Engine, Viewer, Moderator,
	// Determinizer, MoveText, FENText, Configurable and Seeder, which
	// Compile looks for once. A variant package keeps its per-game data
	// in it and finds it again from a *Variant with Variant.Ext. Nil: the
	// variant is data alone.
	Ext any

	// Face is an opaque value attached by whoever assembles a catalog of
	// variants, for the layers above the rules (which find through it,
	// say, a variant's whole-turn player). The rules never look inside
	// it; Variant.Face returns it, Variant.WithFace replaces it, and
	// Variant.Configure carries it over.
	Face any
}

// PieceSpec declares one piece type. Ordinary pieces need nothing but data.
type PieceSpec struct {
	Letter byte   // upper-case FEN letter; lower case is the black piece
	Name   string // "knight"
	Betza  string // movement in the betza package's notation
	Royal  bool   // may not be left in check; losing it loses the game
	Value  int    // centipawns for the engine; 0 lets the engine derive it
	// CannotCapture lists letters of types this piece may not capture (the
	// Chatrang Elephant cannot capture an Elephant). It also limits checks.
	CannotCapture string
	// Region, if not empty, is the set of squares the piece may move to
	// and capture on, for White; Black's is turned over rank by rank (the
	// xiangqi palace and the elephant's own half).
	Region geom.Set
	// ZoneBetza is the movement of the piece while it stands on ZoneRanks
	// (counted from the owner's side, 1 its first rank) instead of Betza:
	// the xiangqi soldier steps sideways too once it has crossed the river.
	ZoneBetza string
	ZoneRanks []int
	// PromotesTo is the letter of the type the piece may become when a
	// move of it starts or ends in the promotion zone (Promotion.Ranks),
	// as shogi's pieces do; 0: none. PromotedFrom, on that type, is the
	// letter it was: FEN writes the promoted piece "+" and that letter
	// ("+P"), and taken where captures go to hand it goes there as that.
	PromotesTo, PromotedFrom byte
}

// PawnSpec names the pawn: the piece that promotes, may double-step, is
// taken en passant and resets the move-rule counter.
type PawnSpec struct {
	Letter     byte  // 0: the variant has no pawn
	DoubleStep bool  // an extra move-only, non-jumping two-square step forward
	StepRanks  []int // ranks (1 = own first rank) the double step starts from; nil: the pawn's start ranks
	EnPassant  bool  // a double step may be taken en passant
}

// PromotionSpec says where and into what the pawn promotes.
type PromotionSpec struct {
	Ranks     []int  // ranks counted from the owner's side (8 on 8x8 chess); nil: no promotion
	Pieces    string // letters of the types a pawn may become, in menu order
	Mandatory bool   // a pawn reaching the zone must promote
	// MandatoryRanks are ranks of the zone (counted as Ranks are) where a
	// pawn must promote though Mandatory is false: Grand chess's last
	// rank, while its eighth and ninth leave the choice. A pawn that may
	// promote to nothing (Limits) cannot move there.
	MandatoryRanks []int
	Limits         map[byte]int // a type may be chosen only while its count on board is below this
}

// CastlingSpec configures castling. The king stands on its first rank and
// castles with the outermost rook on either side, as in chess and Chess960:
// both go to fixed files and every square either passes must be empty but
// for the two, and the king may not be in check or pass an attacked square.
type CastlingSpec struct {
	Enabled   bool
	Rook      byte   // letter of the castling piece, e.g. 'R'
	KingFiles [2]int // files (0-based) the king ends on: kingside, queenside
	RookFiles [2]int // files the rook ends on
	// KingTakesRook writes castling in coordinates as the king's move to
	// the rook's square (b1h1), as UCI does for Chess960, even where the
	// king's own move would say it.
	KingTakesRook bool
}

// Value is what a position is worth to the side it happens to.
type Value int8

// The values an end rule can give.
const (
	None Value = iota // the rule does not apply
	Loss
	DrawValue
	WinValue
)

// EndSpec lists the rules that end a game.
type EndSpec struct {
	Checkmate Value // for the checkmated side; normally Loss
	Stalemate Value // for the stalemated side: DrawValue in chess, WinValue in Chatrang
	BareKing  Value // for a side left with royal pieces only, judged before the other rules; None to disable
	NMoveRule int   // moves (by each side) without a capture or pawn move that draw; 0: none
	NFold     int   // occurrences of one position that draw; 0: none
	MoveCap   int   // plies played in the game (Position.Played) after which it is drawn; 0: none
	// Dead lists material that can never mate, as "white:black" letter
	// strings with the royal included, in either colour order: "KN:K".
	Dead []string
	// DeadSameColor lists letters: a position in which every non-royal piece
	// is of these types and all stand on squares of one colour is dead.
	DeadSameColor string
}

// Outcome is one possible result of a move decided by chance, with its
// exact probability Num/Den.
type Outcome struct {
	Num, Den uint32
	Label    string
	// Mark is appended to the move's text in a game record when this
	// outcome happened ("~" for a failed Vazir try); "" for outcome 0.
	Mark string
}

// Certain is the only outcome of a move that chance does not decide.
var Certain = []Outcome{{Num: 1, Den: 1}}

// Option is one per-game option of a variant, as a name and a text value
// (a tag of the game record).
type Option struct {
	Name, Value string
	// Secret marks a value that is hidden information while a game in
	// which each player sees only its view is played (csipgs's terrain,
	// hidden until seen in the moderated mode): what is published of such
	// a game in play leaves it out (Variant.PublicOptions), and a record
	// of the game as one player saw it does not carry it. It is marked
	// whatever the other options, so that a list of games can leave it
	// out without configuring each game's variant.
	Secret bool
}

// OptionsOf turns name-value pairs (the tags a variant's options write)
// into Options, in their order.
func OptionsOf(tags [][2]string) []Option {
	opts := make([]Option, len(tags))
	for i, t := range tags {
		opts[i] = Option{Name: t[0], Value: t[1]}
	}
	return opts
}

// State is variant data a position carries beyond board, reserves, money
// and turn counters (for example the stacks of Crazy Chess). A variant's
// rules that change it must also restore it on Unmake (AfterUnmake,
// UnmakeSpecial).
type State interface {
	Clone() State
	Hash() uint64   // mixed into the position key
	String() string // the FEN field(s) the variant adds
}

// View is what one player may see of a position. Unseen squares are empty in
// Position and absent from Visible. Position holds only what the viewer
// may know: its FEN, money and reserves may be shown to the viewer as they
// are. EconomyHidden says, by colour, whose treasury and reserve the view
// does not show (they are zero in Position, which must not be read as a
// value).
type View struct {
	Viewer        Color
	Visible       geom.Set
	Position      *Position
	EconomyHidden [2]bool
}
