package rules

import (
	"math/rand/v2"

	"github.com/anychess/anychess/geom"
)

// A variant's own rules, for what data cannot say, are the methods of the
// value it gives as Spec.Ext. The core finds them as io.Copy finds an
// io.WriterTo: each interface below is optional, and Compile asserts Ext
// to every one of them once and keeps what it finds, so that the hot path
// calls through typed interfaces without a type assertion. A variant
// implements only the interfaces of the rules it changes; what it does not
// implement keeps the standard behaviour. The methods must agree with one
// another (a move that Generate adds must be understood by MakeSpecial and
// the variant's MoveText).
//
// Each interface is one job. Where having the method at all changes what
// the core does (a variant with a Legal rule is generated move by move, one
// with Outcomes has chance, one with a View hides information), it stands
// alone; methods that only make sense together share an interface.
//
// Methods that are called while a search runs (Generate, Legal,
// MakeSpecial, AfterMake and their inverses, Outcomes, End, InCheck,
// Tactical, Eval) must not allocate in steady state if the variant is to
// be searched fast.

// Generator adds the variant's own moves to the standard ones.
type Generator interface {
	// Generate may append variant moves (kind Special or Drop) to the
	// standard pseudo-legal moves, or remove moves, and returns the list.
	Generate(p *Position, moves []Move) []Move
}

// LegalJudge decides legality where it is not "the mover's royal pieces
// are not attacked afterwards" (several royals, royal capture). A variant
// that has it is generated move by move (pseudo-legal moves, each judged).
type LegalJudge interface {
	// Legal decides whether a pseudo-legal move is legal.
	Legal(p *Position, m Move) bool
}

// Unlister accepts moves that LegalMoves does not list: a variant whose
// moves are too many to list (csipgs's designs: LegalMoves offers a
// catalogue, any priced design may be chosen) lists some and accepts the
// others here. Without it only listed moves are legal. See
// Position.Playable.
type Unlister interface {
	// Unlisted reports whether m, a move LegalMoves does not list, is
	// legal all the same.
	Unlisted(p *Position, m Move) bool
}

// SpecialMover plays the variant's own kind of move, Special.
type SpecialMover interface {
	// MakeSpecial performs a Special move with the chosen outcome;
	// UnmakeSpecial reverses it.
	MakeSpecial(p *Position, m Move, outcome int)
	UnmakeSpecial(p *Position, m Move, outcome int)
}

// AfterMover adds effects to every move after the core's own.
type AfterMover interface {
	// AfterMake runs after the standard effects of m with the chosen
	// outcome. It may change turn, phase and counters (several decisions
	// in a row), money and State; Unmake restores turn, phase, counters
	// and money by itself, and AfterUnmake, called first, restores State.
	AfterMake(p *Position, m Move, outcome int)
	AfterUnmake(p *Position, m Move, outcome int)
}

// Randomizer gives moves whose result chance decides. A variant that has
// it has chance (Variant.Chance).
type Randomizer interface {
	// Outcomes lists the possible results of m with their probabilities;
	// a nil result means m has one certain outcome.
	Outcomes(p *Position, m Move) []Outcome
}

// Ender judges the variant's own end rules.
type Ender interface {
	// End judges variant end rules before the standard ones. ok true
	// decides: the status returned stands, and when it is not over the
	// game goes on whatever the standard rules would say (Crazy Chess
	// while the last move may still be denied). ok false leaves the
	// position to the standard rules.
	End(p *Position) (st Status, ok bool)
}

// HistoryEnder judges a variant end rule that, like the move rule and
// repetition, follows from the course of the game rather than the board
// alone (makruk's counting). It is judged in Status with those rules,
// after checkmate and stalemate; perft ignores it as it ignores them, as
// Fairy-Stockfish's perft does.
type HistoryEnder interface {
	// HistoryEnd reports whether the game ends by the rule, and how; it
	// is asked only when the side to move has a legal move.
	HistoryEnd(p *Position) (st Status, ok bool)
}

// Checker decides check where check is not "a royal piece attacked"
// (Crazy Chess: a reply would remove the King).
type Checker interface {
	// InCheck reports whether the side to move is in check.
	InCheck(p *Position) bool
	// Checked appends the squares of the side to move's royal pieces in
	// check (see Position.Checked); it is called only when InCheck is
	// true.
	Checked(p *Position, dst []geom.Square) []geom.Square
}

// BareJudge decides whether a side has nothing left to mate with, for a
// variant whose royalty or material lies in its own rules (see
// Position.Bare).
type BareJudge interface {
	// Bare reports whether side c has nothing left to mate with.
	Bare(p *Position, c Color) bool
}

// Engine tells a search what the board and the standard rules do not.
type Engine interface {
	// Tactical reports whether m wins or restores material (a capture by
	// a move of the variant's own kind, a denial that undoes a capture),
	// which Position.IsCapture, quiescence and move ordering then treat
	// as a capture, and gain, the material it wins by the pieces' Value
	// (an estimate for ordering and pruning). It replaces the standard
	// test for every move.
	Tactical(p *Position, m Move) (gain int, ok bool)
	// Eval returns, for the side to move, what a static evaluation of the
	// board alone misses (pieces carried inside others), by the pieces'
	// Value; 0 if nothing.
	Eval(p *Position) int
}

// Viewer hides information: each player sees only its View of a position.
type Viewer interface {
	// View returns what c may see of p.
	View(p *Position, c Color) View
}

// Moderator judges a move chosen from a view against the true position.
type Moderator interface {
	// Moderate judges m, a move the side to move chose from view (its
	// View of p), against the true position p: it returns the move of p
	// that m stands for, or an error wrapping ErrRefused (see
	// Position.Moderate). Without a Moderator m must be playable in p as
	// it is.
	Moderate(p *Position, view *Position, m Move) (Move, error)
}

// Determinizer samples full positions for a search under hidden
// information.
type Determinizer interface {
	// Determinize samples a full position consistent with a view.
	Determinize(v View, r *rand.Rand) *Position
}

// MoveText gives the text of the variant's own moves.
type MoveText interface {
	// EncodeMove and DecodeMove give the text of Special moves; ok false
	// leaves the move or text to the core's notations.
	EncodeMove(p *Position, m Move) (s string, ok bool)
	DecodeMove(p *Position, s string) (m Move, ok bool)
	// ExplainMove says why s, which neither DecodeMove nor the core's
	// notations read as a legal move of p, is not one (a buy the player
	// cannot afford, a design change before the action), or returns nil
	// when the variant has nothing to add to the core's reason. A text it
	// explains is reported as an illegal move of the variant's notation.
	ExplainMove(p *Position, s string) error
}

// FENText replaces the core's FEN text for the variant's positions
// (Vazir's ranked FEN).
type FENText interface {
	// FEN writes p; ParseFEN reads a position of v. They may build on
	// Position.PlainFEN and Variant.ParsePlainFEN.
	FEN(p *Position) string
	ParseFEN(v *Variant, s string) (*Position, error)
}

// Configurable gives the variant per-game options, which a game record
// keeps as tags.
type Configurable interface {
	// Options returns the variant's per-game options as its game records
	// write them.
	Options() []Option
	// AllOptions returns every per-game option the variant accepts, with
	// its value, where Options writes only some of them (Crazy Chess's
	// record names only the options that differ from the default).
	AllOptions() []Option
	// Configure returns the variant with the options read from tags
	// (names that are not options are ignored).
	Configure(tags map[string]string) (*Variant, error)
}

// Seeder draws the start position by chance (random ranks, shuffled
// pieces). A variant that has it is Seeded.
type Seeder interface {
	// Setup returns a start position of v drawn with r.
	Setup(v *Variant, r Roller) (*Position, error)
}

// hooks holds what Compile found of the interfaces above in Spec.Ext; a
// nil field means the standard behaviour.
type hooks struct {
	gen      Generator
	legal    LegalJudge
	unlisted Unlister
	special  SpecialMover
	after    AfterMover
	chance   Randomizer
	end      Ender
	history  HistoryEnder
	check    Checker
	bare     BareJudge
	engine   Engine
	view     Viewer
	moderate Moderator
	det      Determinizer
	text     MoveText
	fen      FENText
	options  Configurable
	setup    Seeder
}

// findHooks asserts ext to every optional interface once.
func findHooks(ext any) hooks {
	var h hooks
	h.gen, _ = ext.(Generator)
	h.legal, _ = ext.(LegalJudge)
	h.unlisted, _ = ext.(Unlister)
	h.special, _ = ext.(SpecialMover)
	h.after, _ = ext.(AfterMover)
	h.chance, _ = ext.(Randomizer)
	h.end, _ = ext.(Ender)
	h.history, _ = ext.(HistoryEnder)
	h.check, _ = ext.(Checker)
	h.bare, _ = ext.(BareJudge)
	h.engine, _ = ext.(Engine)
	h.view, _ = ext.(Viewer)
	h.moderate, _ = ext.(Moderator)
	h.det, _ = ext.(Determinizer)
	h.text, _ = ext.(MoveText)
	h.fen, _ = ext.(FENText)
	h.options, _ = ext.(Configurable)
	h.setup, _ = ext.(Seeder)
	return h
}

// Ext returns the variant's own rules object, the value its Spec gave as
// Ext (nil for a variant of data alone). A variant package finds its
// per-game data from a *Variant by asserting it to its own type; callers
// find an optional interface above by asserting it to that interface.
func (v *Variant) Ext() any { return v.spec.Ext }
