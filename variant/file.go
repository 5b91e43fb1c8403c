package variant

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
	"github.com/pelletier/go-toml/v2"
)

// ErrFile is wrapped by every error about a variant file.
var ErrFile = errors.New("bad variant file")

// file is the TOML form of a variant. Field docs are the format reference;
// docs/variants.md repeats them for people, and a test keeps the two in step.
type file struct {
	Base        string      `toml:"base"`              // a variant to start from; keys here replace its keys
	Name        string      `toml:"name"`              // registry name, lower case: "greatshatranj"
	Aliases     []string    `toml:"aliases"`           // other names
	Title       string      `toml:"title"`             // display name: "Great Shatranj"
	Description string      `toml:"description"`       // a short rules summary
	Start       string      `toml:"start"`             // start position (FEN)
	Drops       bool        `toml:"drops"`             // reserve pieces may be dropped on empty squares
	ToHand      bool        `toml:"captures_to_hand"`  // captured pieces go to the capturer's reserve
	Flying      bool        `toml:"flying_royals"`     // royal pieces may not face each other on a file
	Immobile    bool        `toml:"immobile_illegal"`  // no move or drop to a square a piece could never leave
	NoDoubled   string      `toml:"drop_no_doubled"`   // letters not dropped on a file holding one of them
	NoDropMate  string      `toml:"drop_mate_illegal"` // letters whose drop may not checkmate
	Board       boardFile   `toml:"board"`
	Pieces      []pieceFile `toml:"piece"`
	Pawn        pawnFile    `toml:"pawn"`
	Promotion   promoFile   `toml:"promotion"`
	Castling    castleFile  `toml:"castling"`
	End         endFile     `toml:"end"`
}

type boardFile struct {
	Files int      `toml:"files"` // 4..16
	Ranks int      `toml:"ranks"` // 4..16
	Holes []string `toml:"holes"` // squares no piece may enter
}

type pieceFile struct {
	Letter        string   `toml:"letter"`         // one upper-case letter
	Name          string   `toml:"name"`           // "knight"
	Betza         string   `toml:"betza"`          // movement
	Royal         bool     `toml:"royal"`          // may not be left in check
	Value         int      `toml:"value"`          // centipawns; 0: derived by the engine
	CannotCapture string   `toml:"cannot_capture"` // letters this piece may not capture
	Region        []string `toml:"region"`         // squares (or ranges "d1-f3") it may go to, for White
	ZoneBetza     string   `toml:"zone_betza"`     // its movement while on zone_ranks
	ZoneRanks     []int    `toml:"zone_ranks"`     // ranks (1 = own first) where it moves by zone_betza
	PromotesTo    string   `toml:"promotes_to"`    // the letter it may become in the promotion zone
	PromotedFrom  string   `toml:"promoted_from"`  // the letter it was: FEN "+X", to hand as X
}

type pawnFile struct {
	Letter          string `toml:"letter"`            // the pawn's letter; empty: no pawn
	DoubleStep      bool   `toml:"double_step"`       // first move may go two squares
	DoubleStepRanks []int  `toml:"double_step_ranks"` // ranks it may do so from (1 = own first)
	EnPassant       bool   `toml:"en_passant"`        // a double step may be taken en passant
}

type promoFile struct {
	Ranks          []int          `toml:"ranks"`           // ranks from the owner's side where pawns promote
	Pieces         string         `toml:"pieces"`          // letters of the choices
	Mandatory      bool           `toml:"mandatory"`       // the pawn must promote on reaching the zone
	MandatoryRanks []int          `toml:"mandatory_ranks"` // ranks of the zone where it must promote all the same
	Limits         map[string]int `toml:"limits"`          // a type is allowed while fewer than this are on the board
}

type castleFile struct {
	Rook      string   `toml:"rook"`       // the castling piece; empty: no castling
	KingFiles []string `toml:"king_files"` // king's destination: kingside, queenside
	RookFiles []string `toml:"rook_files"` // rook's destination: kingside, queenside
}

type endFile struct {
	Checkmate     string   `toml:"checkmate"`       // for the mated side: loss (default), win, draw
	Stalemate     string   `toml:"stalemate"`       // for the stalemated side: draw (default), win, loss
	BareKing      string   `toml:"bare_king"`       // for a side with royals only: none (default), loss, win, draw
	BareKingReply bool     `toml:"bare_king_reply"` // the bare side may take the opponent's last piece in reply (shatranj)
	Counting      string   `toml:"counting"`        // a counting rule: "makruk"; "": none
	MoveRule      int      `toml:"move_rule"`       // moves without capture or pawn move that draw (50); 0: none
	Repetition    int      `toml:"repetition"`      // occurrences of a position that draw (3); 0: none
	MoveCap       int      `toml:"move_cap"`        // plies played in the game (not counting a FEN's move number) after which it is a draw; 0: none
	Dead          []string `toml:"dead"`            // material that cannot mate, "KN:K"
	DeadSameColor string   `toml:"dead_same_color"` // letters: only these, all on one colour, is dead
}

// Resolver finds the file text of a base variant by name.
type Resolver func(name string) ([]byte, bool)

// Parse reads a variant file. Unknown keys and values of the wrong type are
// errors that name the line; a file with a base starts from that variant.
func Parse(data []byte, origin string, resolve Resolver) (rules.Spec, error) {
	f, err := decode(data, origin, resolve, 0)
	if err != nil {
		return rules.Spec{}, err
	}
	return f.spec(origin)
}

func decode(data []byte, origin string, resolve Resolver, depth int) (*file, error) {
	if depth > 8 {
		return nil, fmt.Errorf("%w: %s: base chain is too long (a loop?)", ErrFile, origin)
	}
	var head struct {
		Base string `toml:"base"`
	}
	if err := toml.Unmarshal(data, &head); err != nil {
		return nil, tomlError(origin, data, err)
	}
	f := &file{}
	if head.Base != "" {
		if resolve == nil {
			return nil, fmt.Errorf("%w: %s: base %q cannot be looked up here", ErrFile, origin, head.Base)
		}
		bd, ok := resolve(head.Base)
		if !ok {
			return nil, fmt.Errorf("%w: %s: unknown base variant %q", ErrFile, origin, head.Base)
		}
		bf, err := decode(bd, head.Base, resolve, depth+1)
		if err != nil {
			return nil, err
		}
		f = bf
		f.Aliases = nil // names are never inherited
	}
	d := toml.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(f); err != nil {
		return nil, tomlError(origin, data, err)
	}
	return f, nil
}

// tomlError rewrites a go-toml error as "origin:line:col: message".
func tomlError(origin string, data []byte, err error) error {
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) && len(sm.Errors) > 0 {
		var msgs []string
		for _, e := range sm.Errors {
			r, c := e.Position()
			msgs = append(msgs, fmt.Sprintf("%s:%d:%d: unknown key %q", origin, r, c, strings.Join(e.Key(), ".")))
		}
		return fmt.Errorf("%w: %s", ErrFile, strings.Join(msgs, "; "))
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		r, c := de.Position()
		msg := de.Error()
		msg = strings.TrimPrefix(msg, "toml: ")
		return fmt.Errorf("%w: %s:%d:%d: %s", ErrFile, origin, r, c, msg)
	}
	return fmt.Errorf("%w: %s: %v", ErrFile, origin, err)
}

func parseValue(s, field string, def rules.Value) (rules.Value, error) {
	switch s {
	case "":
		return def, nil
	case "none":
		return rules.None, nil
	case "loss":
		return rules.Loss, nil
	case "win":
		return rules.WinValue, nil
	case "draw":
		return rules.DrawValue, nil
	}
	return 0, fmt.Errorf("end.%s: %q; want loss, win, draw or none", field, s)
}

func letter(s, field string) (byte, error) {
	if len(s) != 1 || s[0] < 'A' || s[0] > 'Z' {
		return 0, fmt.Errorf("%s: %q is not one upper-case letter", field, s)
	}
	return s[0], nil
}

// spec checks the decoded file and converts it to a rules.Spec.
func (f *file) spec(origin string) (rules.Spec, error) {
	fail := func(err error) (rules.Spec, error) {
		return rules.Spec{}, fmt.Errorf("%w: %s: %v", ErrFile, origin, err)
	}
	if f.Name == "" {
		return fail(errors.New("name: missing"))
	}
	for _, c := range f.Name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return fail(fmt.Errorf("name: %q: use lower-case letters, digits and '-'", f.Name))
		}
	}
	s := rules.Spec{
		Name: f.Name, Aliases: f.Aliases, Title: f.Title, Description: strings.TrimSpace(f.Description),
		Files: f.Board.Files, Ranks: f.Board.Ranks, Start: f.Start, Drops: f.Drops,
		CapturesToHand: f.ToHand, FlyingRoyals: f.Flying, ImmobileIllegal: f.Immobile,
		DropNoDoubled: strings.ToUpper(f.NoDoubled), DropMateIllegal: strings.ToUpper(f.NoDropMate),
	}
	if f.ToHand && !f.Drops {
		return fail(errors.New("captures_to_hand: needs drops"))
	}
	if f.Start == "" {
		return fail(errors.New("start: missing"))
	}
	b, err := geom.NewBoard(f.Board.Files, f.Board.Ranks)
	if err != nil {
		return fail(fmt.Errorf("board: %v", err))
	}
	for _, h := range f.Board.Holes {
		sq, err := b.ParseSquare(h)
		if err != nil {
			return fail(fmt.Errorf("board.holes: %v", err))
		}
		s.Holes.Add(sq)
	}
	for i, pf := range f.Pieces {
		l, err := letter(pf.Letter, fmt.Sprintf("piece %d: letter", i+1))
		if err != nil {
			return fail(err)
		}
		if pf.Name == "" {
			return fail(fmt.Errorf("piece %c: name: missing", l))
		}
		region, err := parseRegion(b, pf.Region)
		if err != nil {
			return fail(fmt.Errorf("piece %c: region: %v", l, err))
		}
		var promo [2]byte
		for k, txt := range []string{pf.PromotesTo, pf.PromotedFrom} {
			if txt == "" {
				continue
			}
			key := []string{"promotes_to", "promoted_from"}[k]
			if promo[k], err = letter(txt, fmt.Sprintf("piece %c: %s", l, key)); err != nil {
				return fail(err)
			}
		}
		s.Pieces = append(s.Pieces, rules.PieceSpec{
			Letter: l, Name: pf.Name, Betza: pf.Betza, Royal: pf.Royal, Value: pf.Value,
			CannotCapture: strings.ToUpper(pf.CannotCapture),
			Region:        region, ZoneBetza: pf.ZoneBetza, ZoneRanks: pf.ZoneRanks,
			PromotesTo: promo[0], PromotedFrom: promo[1],
		})
	}
	if f.Pawn.Letter != "" {
		l, err := letter(f.Pawn.Letter, "pawn.letter")
		if err != nil {
			return fail(err)
		}
		s.Pawn = rules.PawnSpec{Letter: l, DoubleStep: f.Pawn.DoubleStep, StepRanks: f.Pawn.DoubleStepRanks, EnPassant: f.Pawn.EnPassant}
	} else if f.Pawn.DoubleStep || f.Pawn.EnPassant || len(f.Pawn.DoubleStepRanks) > 0 {
		return fail(errors.New("pawn: rules without pawn.letter"))
	}
	s.Promotion = rules.PromotionSpec{Ranks: f.Promotion.Ranks, Pieces: strings.ToUpper(f.Promotion.Pieces), Mandatory: f.Promotion.Mandatory, MandatoryRanks: f.Promotion.MandatoryRanks}
	if len(f.Promotion.Limits) > 0 {
		s.Promotion.Limits = map[byte]int{}
		for k, n := range f.Promotion.Limits {
			l, err := letter(k, "promotion.limits")
			if err != nil {
				return fail(err)
			}
			s.Promotion.Limits[l] = n
		}
	}
	if f.Castling.Rook != "" {
		l, err := letter(f.Castling.Rook, "castling.rook")
		if err != nil {
			return fail(err)
		}
		cs := rules.CastlingSpec{Enabled: true, Rook: l}
		for i, pair := range [][]string{f.Castling.KingFiles, f.Castling.RookFiles} {
			key := []string{"castling.king_files", "castling.rook_files"}[i]
			if len(pair) != 2 {
				return fail(fmt.Errorf("%s: want two files, kingside then queenside", key))
			}
			for j, fl := range pair {
				if len(fl) != 1 || fl[0] < 'a' || int(fl[0]-'a') >= f.Board.Files {
					return fail(fmt.Errorf("%s: %q is not a file of the board", key, fl))
				}
				if i == 0 {
					cs.KingFiles[j] = int(fl[0] - 'a')
				} else {
					cs.RookFiles[j] = int(fl[0] - 'a')
				}
			}
		}
		s.Castling = cs
	} else if len(f.Castling.KingFiles) > 0 || len(f.Castling.RookFiles) > 0 {
		return fail(errors.New("castling: files without castling.rook"))
	}
	e := &s.End
	var errV error
	if e.Checkmate, errV = parseValue(f.End.Checkmate, "checkmate", rules.Loss); errV != nil {
		return fail(errV)
	}
	if e.Stalemate, errV = parseValue(f.End.Stalemate, "stalemate", rules.DrawValue); errV != nil {
		return fail(errV)
	}
	if e.BareKing, errV = parseValue(f.End.BareKing, "bare_king", rules.None); errV != nil {
		return fail(errV)
	}
	switch f.End.Counting {
	case "":
	case "makruk":
		s.Ext = makrukCounting{}
	default:
		return fail(fmt.Errorf("end.counting: %q; want makruk", f.End.Counting))
	}
	if f.End.BareKingReply {
		if e.BareKing == rules.None {
			return fail(errors.New("end.bare_king_reply: needs end.bare_king"))
		}
		if s.Ext != nil {
			return fail(errors.New("end.bare_king_reply: cannot be combined with end.counting"))
		}
		s.Ext = &bareReply{value: e.BareKing}
		e.BareKing = rules.None
	}
	if e.Checkmate == rules.None || e.Stalemate == rules.None {
		return fail(errors.New("end: checkmate and stalemate need a value"))
	}
	e.NMoveRule, e.NFold, e.MoveCap = f.End.MoveRule, f.End.Repetition, f.End.MoveCap
	e.Dead, e.DeadSameColor = f.End.Dead, strings.ToUpper(f.End.DeadSameColor)
	return s, nil
}

// Keys returns every key of the file format as a dotted path ("end.dead",
// "piece.betza"), for documentation checks.
func Keys() []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := f.Tag.Get("toml")
			if name == "" {
				continue
			}
			ft := f.Type
			if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				walk(ft, prefix+name+".")
				continue
			}
			out = append(out, prefix+name)
		}
	}
	walk(reflect.TypeOf(file{}), "")
	return out
}

// parseRegion reads a piece's region: squares ("e2") and rectangles given
// by two corners ("d1-f3").
func parseRegion(b geom.Board, items []string) (geom.Set, error) {
	var set geom.Set
	for _, it := range items {
		lo, hi, ok := strings.Cut(it, "-")
		if !ok {
			hi = lo
		}
		a, err := b.ParseSquare(lo)
		if err != nil {
			return set, err
		}
		z, err := b.ParseSquare(hi)
		if err != nil {
			return set, err
		}
		for f := min(a.File(), z.File()); f <= max(a.File(), z.File()); f++ {
			for r := min(a.Rank(), z.Rank()); r <= max(a.Rank(), z.Rank()); r++ {
				set.Add(geom.Sq(f, r))
			}
		}
	}
	return set, nil
}
