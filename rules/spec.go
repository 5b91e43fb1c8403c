package rules

import (
	"math/rand/v2"

	"github.com/anychess/anychess/geom"
)

// Spec declares a variant: geometry and pieces as data, the common rules as
// parameters, and optional hooks for rules that data cannot express.
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
	End       EndSpec

	// Ranked says that every piece carries a rank 0..9 in its attribute
	// (Vazir); boards and move lists show it after the letter.
	Ranked bool

	// Weights are the engine evaluation's named weights learned for this
	// variant (package eval documents the names); nil keeps the hand-set
	// evaluation. The rules do not read them.
	Weights map[string]float64

	// Face is an opaque value attached by whoever assembles the variant
	// (Variant.Face, Variant.WithFace): what the programs above the rules
	// ask the variant for. The rules never read it; Configure carries it.
	Face any

	Hooks Hooks
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
	Ranks     []int        // ranks counted from the owner's side (8 on 8x8 chess); nil: no promotion
	Pieces    string       // letters of the types a pawn may become, in menu order
	Mandatory bool         // a pawn reaching the zone must promote
	Limits    map[byte]int // a type may be chosen only while its count on board is below this
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
// and turn counters (for example the stacks of Crazy Chess). Hooks that
// change it must also restore it on Unmake.
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

// Hooks are optional variant rules called at fixed points. A nil field means
// the standard behaviour. Hooks must agree with one another (a move that
// Generate adds must be understood by MakeSpecial and the notation hooks).
type Hooks struct {
	// Generate may append variant moves (kind Special or Drop) to the
	// standard pseudo-legal moves, or remove moves, and returns the list.
	Generate func(p *Position, moves []Move) []Move
	// Legal decides whether a pseudo-legal move is legal; nil: the mover's
	// royal pieces may not be attacked afterwards.
	Legal func(p *Position, m Move) bool
	// Outcomes lists the possible results of m with their probabilities.
	// Nil, or a nil result, means m has one certain outcome.
	Outcomes func(p *Position, m Move) []Outcome
	// AfterMake runs after the standard effects of m with the chosen
	// outcome. It may change turn, phase and counters (several decisions
	// in a row), money and State; Unmake restores turn, phase, counters and
	// money by itself, the hook restores State in AfterUnmake.
	AfterMake   func(p *Position, m Move, outcome int)
	AfterUnmake func(p *Position, m Move, outcome int)
	// MakeSpecial performs a Special move; UnmakeSpecial reverses it.
	MakeSpecial   func(p *Position, m Move, outcome int)
	UnmakeSpecial func(p *Position, m Move, outcome int)
	// End judges variant end rules before the standard ones. ok true
	// decides: the status returned stands, and when it is not over the
	// game goes on whatever the standard rules would say (Crazy Chess while
	// the last move may still be denied). ok false leaves the position to
	// the standard rules.
	End func(p *Position) (st Status, ok bool)
	// View returns what c may see; nil: everything.
	View func(p *Position, c Color) View
	// Moderate judges m, a move the side to move chose from view (its
	// View of p), against the true position p: it returns the move of p
	// that m stands for, or an error wrapping ErrRefused (see
	// Position.Moderate). Nil: m must be playable in p as it is.
	Moderate func(p *Position, view *Position, m Move) (Move, error)
	// Determinize samples a full position consistent with a view, for
	// search under hidden information.
	Determinize func(v View, r *rand.Rand) *Position
	// EncodeMove and DecodeMove give the text of Special moves.
	EncodeMove func(p *Position, m Move) (string, bool)
	DecodeMove func(p *Position, s string) (Move, bool)
	// Checked appends the squares of the side to move's royal pieces in
	// check, where InCheck is the variant's own (see Position.Checked).
	Checked func(p *Position, dst []geom.Square) []geom.Square
	// Bare reports whether side c has nothing left to mate with, for a
	// variant whose royalty or material lies in its hooks (see
	// Position.Bare); nil: the core's answer.
	Bare func(p *Position, c Color) bool
	// ExplainMove says why s, which neither DecodeMove nor the core's
	// notations read as a legal move of p, is not one (a buy the player
	// cannot afford, a design change before the action), or returns nil
	// when the variant has nothing to add to the core's reason. A text it
	// explains is reported as an illegal move of the variant's notation.
	ExplainMove func(p *Position, s string) error
	// FEN and ParseFEN replace the core's FEN text for the variant's
	// positions (Vazir's ranked FEN). They may build on Position.PlainFEN
	// and Variant.ParsePlainFEN.
	FEN      func(p *Position) string
	ParseFEN func(v *Variant, s string) (*Position, error)
	// Options returns the variant's per-game options, which a game record
	// keeps as tags; Configure returns the variant with the options read
	// from such tags (names that are not options are ignored). Nil: the
	// variant has no options.
	Options   func() []Option
	Configure func(tags map[string]string) (*Variant, error)
	// AllOptions returns every per-game option the variant accepts, with
	// its value, where Options writes only some of them (Crazy Chess's
	// record names only the options that differ from the default). Nil:
	// Options lists them all.
	AllOptions func() []Option
	// Setup returns a start position drawn with r (random ranks, shuffled
	// pieces). Nil: the start position is fixed.
	Setup func(v *Variant, r Roller) (*Position, error)
	// InCheck reports whether the side to move is in check, where check is
	// not "a royal piece attacked" (Crazy Chess: a reply would remove the
	// King). Nil: the standard test.
	InCheck func(p *Position) bool
	// Tactical reports whether m wins or restores material (a capture by
	// a move of the variant's own kind, a denial that undoes a capture),
	// which Position.IsCapture, quiescence and move ordering then treat as
	// a capture, and gain, the material it wins by the pieces' Value
	// (an estimate for ordering and pruning). Nil: the standard test.
	Tactical func(p *Position, m Move) (gain int, ok bool)
	// Eval returns, for the side to move, what a static evaluation of the
	// board alone misses (pieces carried inside others), by the pieces'
	// Value. Nil: nothing.
	Eval func(p *Position) int
	// Unlisted reports whether m, a move LegalMoves does not list, is
	// legal all the same: a variant whose moves are too many to list
	// (csipgs's designs: LegalMoves offers a catalogue, any priced design
	// may be chosen) lists some and accepts the others here. Nil: only
	// listed moves are legal. See Position.Playable.
	Unlisted func(p *Position, m Move) bool
}
