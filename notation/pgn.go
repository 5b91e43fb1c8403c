package notation

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation/pgn"
	"github.com/anychess/anychess/rules"
)

// ErrPGN is wrapped by errors about a PGN game's content (as opposed to its
// syntax, which package pgn reports).
var ErrPGN = errors.New("bad PGN game")

// variantAliases maps Variant tag values other programs write to ours.
var variantAliases = map[string]string{
	"standard": "chess", "from position": "chess", "normal": "chess", "": "chess",
}

// Variants is what reading a game needs of a registry of variants (a
// *variant.Registry, such as catalog.Default's, is one).
type Variants interface {
	// Get returns the variant with the given name or alias, ignoring
	// case, or an error.
	Get(name string) (*rules.Variant, error)
	// Variants returns every variant.
	Variants() []*rules.Variant
	// Aliases returns every accepted name of v, canonical name first.
	Aliases(v *rules.Variant) []string
}

// findVariant resolves a PGN Variant tag: a name or alias in any case,
// spaces, hyphens and underscores ignored, or a variant's title.
func findVariant(reg Variants, tag string) (*rules.Variant, error) {
	key := strings.ToLower(strings.TrimSpace(tag))
	if a, ok := variantAliases[key]; ok {
		key = a
	}
	if v, err := reg.Get(key); err == nil {
		return v, nil
	}
	squash := strings.NewReplacer(" ", "", "-", "", "_", "")
	for _, v := range reg.Variants() {
		for _, name := range append(reg.Aliases(v), v.Title()) {
			if squash.Replace(strings.ToLower(name)) == squash.Replace(key) {
				return v, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: unknown variant %q", ErrPGN, tag)
}

// ReadGame replays a parsed PGN game. The variant comes from the Variant
// tag (chess if there is none) and is configured with the game's tags
// (rules.Variant.Configure: Vazir's MPT and other option tags; the first
// tag of a name counts). The start comes from the FEN tag, read by the
// variant's ParseFEN (RFEN for Vazir). A variant whose start is drawn by
// chance (Seeded) needs the FEN tag: without it the start is unknown, and
// the game is an error.
//
// Each move token is one turn (R-PGN): elements joined by ",", each read by
// ParseElement (SAN or coordinates, then the Mark of its outcome), so
// "Nxe5~,Bxf7+" is a failed try of Nxe5 and the capture Bxf7. A token that
// begins with "," continues the turn of the token before it, and one that
// ends with "," goes on in the next, so that a comment may follow any
// element ("Nxe5~{u=6/9},Bxf7+" reads as the token "Nxe5~", a comment and
// the token ",Bxf7+"). Where every turn is one ply (chess), a token is one
// move as in ordinary PGN. After the last element of a turn the turn must
// have passed to the other side or the game must be over, and not before;
// only the last turn of a game without a result ("*") may stop inside a
// turn, as a game in progress does. Comments and NAGs after a token belong
// to the ply of its last element.
//
// Errors wrap ErrPGN and name the move number and, inside a turn, the
// element.
func ReadGame(reg Variants, pg *pgn.Game) (*game.Game, error) {
	vt, _ := pg.Tag("Variant")
	v, err := findVariant(reg, vt)
	if err != nil {
		return nil, err
	}
	tags := make(map[string]string, len(pg.Tags))
	for _, t := range pg.Tags {
		if _, ok := tags[t.Name]; !ok {
			tags[t.Name] = t.Value
		}
	}
	if v, err = v.Configure(tags); err != nil {
		return nil, fmt.Errorf("%w: option tags: %w", ErrPGN, err)
	}
	start := v.Start()
	if fen, ok := tags["FEN"]; ok {
		start, err = v.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("%w: FEN tag: %w", ErrPGN, err)
		}
	} else if v.Seeded() {
		return nil, fmt.Errorf("%w: no FEN tag: the start of a %s game is drawn by chance, so the record must give it", ErrPGN, v.Title())
	}
	g := game.New(v, start)
	for _, t := range pg.Tags {
		g.Tags = append(g.Tags, game.Tag{Name: t.Name, Value: t.Value})
	}
	g.Comments = pg.Comment
	r := turnReader{g: g}
	for _, pm := range pg.Moves {
		if err := r.token(pm); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrPGN, err)
		}
	}
	if err := r.end(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPGN, err)
	}
	var recorded rules.Result
	switch pg.Result {
	case "1-0":
		recorded = rules.WhiteWins
	case "0-1":
		recorded = rules.BlackWins
	case "1/2-1/2":
		recorded = rules.Draw
	}
	// A result the final position does not give by rule (a resignation, an
	// agreed draw, a loss on time) is kept on the game.
	if recorded != rules.Ongoing && g.Position().Status().Result != recorded {
		g.Result = recorded
		g.Reason = "as recorded"
	}
	return g, nil
}

// turnReader plays the move tokens of a game, turn by turn.
type turnReader struct {
	g *game.Game

	started bool        // a turn has begun
	over    bool        // the current turn has passed or the game ended
	open    bool        // the last token ended with ",": the turn goes on
	mover   rules.Color // the side of the current turn
	num     int         // its move number
	text    string      // its tokens so far, for messages
	n       int         // its elements so far
}

// where names the current turn in an error.
func (r *turnReader) where() string {
	dots := ""
	if r.mover == rules.Black {
		dots = "..."
	}
	return fmt.Sprintf("move %d%s (%s)", r.num, dots, r.text)
}

// token reads one move token: a turn, or (beginning with ",", or after a
// token ending with ",") more elements of the current one.
func (r *turnReader) token(pm pgn.Move) error {
	body, cont := strings.CutPrefix(pm.Text, ",")
	cont = cont || r.open
	switch {
	case pm.Text == "":
		return errors.New("empty move token")
	case cont && !r.started:
		return fmt.Errorf("move token %q continues no turn", pm.Text)
	case cont:
		r.text += pm.Text
	default:
		if r.started && !r.over {
			return fmt.Errorf("%s: %w: the turn does not end after element %d", r.where(), ErrTurn, r.n)
		}
		p := r.g.Position()
		r.started, r.over, r.mover, r.num, r.text, r.n = true, false, p.Turn(), p.Fullmove(), pm.Text, 0
	}
	// A lone "," joins the tokens around it.
	body, r.open = strings.CutSuffix(body, ",")
	r.open = r.open || pm.Text == ","
	if body != "" {
		// A move's own text may hold commas (Crazy Chess's disguise
		// chains): the most parts that read as one move make an element.
		parts := strings.Split(body, ",")
		for n := 0; len(parts) > 0; parts = parts[n:] {
			n = nextElement(r.g.Position(), parts)
			if err := r.element(strings.Join(parts[:n], ",")); err != nil {
				return err
			}
		}
	}
	if n := len(r.g.Plies); n > 0 && r.n > 0 {
		pl := &r.g.Plies[n-1]
		pl.NAGs = append(pl.NAGs, pm.NAGs...)
		pl.Comments = append(pl.Comments, pm.Comments...)
	}
	return nil
}

// element reads and plays one element of the current turn.
func (r *turnReader) element(e string) error {
	r.n++
	if r.over {
		return fmt.Errorf("%s: %w: the turn ended at element %d, before %q", r.where(), ErrTurn, r.n-1, e)
	}
	if e == "" {
		return fmt.Errorf("%s: %w: element %d is empty", r.where(), ErrTurn, r.n)
	}
	m, k, err := ParseElement(r.g.Position(), e)
	if err == nil {
		err = r.g.Play(m, k)
	}
	if err != nil && e == r.text {
		return fmt.Errorf("%s: %w", r.where(), err)
	}
	if err != nil {
		return fmt.Errorf("%s: element %d (%s): %w", r.where(), r.n, e, err)
	}
	r.over = game.TurnOver(r.g.Position(), r.mover)
	return nil
}

// end checks the last turn: a "," must be followed by an element. The
// last turn may be unfinished: a game in progress may stop between two
// decisions, and a game may end there by resignation, time or agreement.
func (r *turnReader) end() error {
	if r.open {
		return fmt.Errorf("%s: %w: the last element is missing after \",\"", r.where(), ErrTurn)
	}
	return nil
}

// WriteGame turns a game into PGN (R-PGN where a turn may hold several
// plies). Tags: the seven-tag roster; Variant (left out for chess, so that
// ordinary tools read the game); the variant's option tags
// (rules.Variant.Options: [MPT "3"] and the others for Vazir); SetUp and
// FEN when the game does not start from the variant's start or the
// variant's start is drawn by chance (Seeded; the FEN is the variant's own,
// RFEN for Vazir); then the game's other tags (RNG and so on; a tag of the
// game named like an option, SetUp or FEN is left out, the variant's
// value counts).
//
// Each turn is one move token: the plies of the turn in SAN, each followed
// by the Mark of its outcome, joined by ",", e.g. "Nxe5~,Bxf7+" or
// "Qxh7~,Qxh7~,Qxh7~". A turn is the run of plies up to one that passes the
// turn or ends the game (game.TurnOver), so where every turn is one ply
// (chess) the moves are plain SAN. Comments and NAGs stay with their plies:
// where a ply inside a turn has some, the token ends there, they follow,
// and the turn goes on in a token beginning with "," ("Nxe5~ {u=6/9}
// ,Bxf7+"), which ReadGame joins again. The result is the game's, or the
// rule's if the final position ends the game.
func WriteGame(g *game.Game) *pgn.Game {
	pg := &pgn.Game{Comment: g.Comments, Tags: writeTags(g, false)}
	plies := turnPlies(g)
	for i, pl := range g.Plies {
		text := plies[i].san + plies[i].mark
		if i > 0 && !plies[i-1].ends {
			if last := &pg.Moves[len(pg.Moves)-1]; len(last.NAGs) == 0 && len(last.Comments) == 0 {
				last.Text += "," + text
				last.NAGs, last.Comments = pl.NAGs, pl.Comments
				continue
			}
			text = "," + text
		}
		pg.Moves = append(pg.Moves, pgn.Move{Text: text, NAGs: pl.NAGs, Comments: pl.Comments,
			Num: plies[i].num, Black: plies[i].black})
	}
	pg.Result = g.Status().Result.String()
	return pg
}

// RFENTag names the tag in which WritePlainGame keeps the start position in
// the variant's own FEN (Vazir's RFEN) when the FEN tag holds the plain one.
const RFENTag = "RFEN"

// WritePlainGame turns a game into ordinary PGN, for tools that know
// neither turn tokens nor a variant's own FEN (R-PGN's export, Vazir
// section 1.9). Each turn is one move, its effective move: the last ply of
// the turn, in plain SAN. The plies before it (failed tries), each with its
// Mark, go into a comment before it: "{Nxe5~ Nxe5~} Bxf7+"; a ply's own
// comments follow its text as comments of their own, and its NAGs are
// dropped. A turn whose last ply has a Mark (it ended with a failed try)
// has no effective move: it is written as the null move "--" after the
// comment ("{Qxh7~ Qxh7~ Qxh7~} --"; pgn-extract reads it with
// --allownullmoves). An unfinished last turn is a comment after the last
// move. The tags are WriteGame's, except that the FEN tag holds the plain
// FEN of the start (rules.Position.PlainFEN, Vazir's ranks left out) and,
// where that differs from the variant's own, the tag RFEN holds the latter.
// Where every turn is one ply with no mark (chess), the result is
// WriteGame's. ReadGame does not read the export back.
func WritePlainGame(g *game.Game) *pgn.Game {
	pg := &pgn.Game{Comment: g.Comments, Tags: writeTags(g, true)}
	// before adds a comment before the next move.
	before := func(c string) {
		if n := len(pg.Moves); n > 0 {
			pg.Moves[n-1].Comments = append(pg.Moves[n-1].Comments, c)
		} else {
			pg.Comment = append(pg.Comment, c)
		}
	}
	var tries []string // the failed tries since the last move or comment
	flush := func() {
		if len(tries) > 0 {
			before(strings.Join(tries, " "))
			tries = tries[:0]
		}
	}
	plies := turnPlies(g)
	for i, pl := range g.Plies {
		info := plies[i]
		if info.ends && info.mark == "" {
			flush()
			pg.Moves = append(pg.Moves, pgn.Move{Text: info.san, NAGs: pl.NAGs, Comments: pl.Comments})
			continue
		}
		tries = append(tries, info.san+info.mark)
		if len(pl.Comments) > 0 {
			flush()
			for _, c := range pl.Comments {
				before(c)
			}
		}
		if info.ends {
			flush()
			pg.Moves = append(pg.Moves, pgn.Move{Text: "--"})
		}
	}
	flush()
	pg.Result = g.Status().Result.String()
	return pg
}

// plyText is what the writers need of a ply: its SAN, the Mark of its
// outcome, and whether it ends its turn.
type plyText struct {
	san, mark string
	ends      bool
	num       int  // the move number before the ply
	black     bool // Black made it
}

// turnPlies replays g and describes each ply.
func turnPlies(g *game.Game) []plyText {
	out := make([]plyText, len(g.Plies))
	var mover rules.Color
	g.Replay(func(p *rules.Position, i int) {
		if i > 0 {
			out[i-1].ends = game.TurnOver(p, mover)
		}
		pl := g.Plies[i]
		mover = p.Turn()
		out[i] = plyText{san: SAN(p, pl.Move), mark: Mark(p, pl.Move, pl.Outcome),
			num: p.Fullmove(), black: mover == rules.Black}
	})
	if n := len(out); n > 0 {
		out[n-1].ends = game.TurnOver(g.Position(), mover)
	}
	return out
}

// writeTags returns the tags of g as WriteGame (plain: WritePlainGame)
// writes them.
func writeTags(g *game.Game, plain bool) []pgn.Tag {
	var tags []pgn.Tag
	set := func(name, value string) { tags = append(tags, pgn.Tag{Name: name, Value: value}) }
	// The roster first (pgn.Write puts it in order), then the variant's
	// tags, then the others.
	used := make([]bool, len(g.Tags))
	for _, name := range []string{"Event", "Site", "Date", "Round", "White", "Black"} {
		if i := slices.IndexFunc(g.Tags, func(t game.Tag) bool { return t.Name == name }); i >= 0 {
			set(name, g.Tags[i].Value)
			used[i] = true
		}
	}
	set("Result", g.Status().Result.String())
	skip := map[string]bool{"Variant": true, "SetUp": true, "FEN": true, "Result": true}
	if g.Variant.Name() != "chess" {
		set("Variant", pgnVariantName(g.Variant))
	}
	for _, o := range g.Variant.Options() {
		set(o.Name, o.Value)
		skip[o.Name] = true
	}
	start := g.Start()
	if fen := start.FEN(); fen != g.Variant.StartFEN() || g.Variant.Seeded() {
		set("SetUp", "1")
		if plainFEN := start.PlainFEN(); plain && plainFEN != fen {
			set("FEN", plainFEN)
			set(RFENTag, fen)
			skip[RFENTag] = true
		} else {
			set("FEN", fen)
		}
	}
	for i, t := range g.Tags {
		if !used[i] && !skip[t.Name] {
			set(t.Name, t.Value)
		}
	}
	return tags
}

// pgnVariantName is the Variant tag of a game of v: the name other PGN
// tools use where the variant gives one (rules.Spec.PGNName: "Chess960",
// as lichess and python-chess write it), else the registry's name. Either
// reads back.
func pgnVariantName(v *rules.Variant) string {
	if n := v.Spec().PGNName; n != "" {
		return n
	}
	return v.Name()
}
