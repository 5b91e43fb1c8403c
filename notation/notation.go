// Package notation writes and reads moves as text: coordinate notation
// (e2e4, a7a8q, j2j3, a10a11, N@e4) as the UCI and XBoard protocols use it,
// and Standard Algebraic Notation (Nf3, exd6, O-O, e8=Q+) with correct
// disambiguation on boards of any size. It also turns PGN games into game
// records and back (see pgn.go), with R-PGN turn tokens where a turn holds
// several plies (turn.go: "Nxe5~,Bxf7+", a failed Vazir try then a
// capture) and a plain export for ordinary tools; the syntax of PGN is in
// package pgn.
//
// Every function takes the position the move is played from: a move's text
// depends on it (disambiguation, check marks), and reading text means
// finding the legal move it names.
package notation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// Errors returned by the readers. Each is wrapped with the offending text.
var (
	ErrSyntax    = errors.New("not a move")
	ErrIllegal   = errors.New("illegal move")
	ErrAmbiguous = errors.New("ambiguous move")
)

// MoveError reports a move text that could not be read in a position.
type MoveError struct {
	Text string
	FEN  string
	Err  error  // ErrSyntax, ErrIllegal or ErrAmbiguous
	Msg  string // details
}

func (e *MoveError) Error() string {
	s := fmt.Sprintf("%v %q", e.Err, e.Text)
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.FEN != "" {
		s += " (in " + e.FEN + ")"
	}
	return s
}

// Unwrap returns ErrSyntax, ErrIllegal or ErrAmbiguous.
func (e *MoveError) Unwrap() error { return e.Err }

func moveErr(p *rules.Position, text string, err error, format string, args ...any) error {
	return &MoveError{Text: text, FEN: p.FEN(), Err: err, Msg: fmt.Sprintf(format, args...)}
}

// Coord returns the coordinate text of a legal move: origin and target
// square, then the lower-case letter of a promotion (e7e8q), or "+" for
// a piece's promotion to its promoted form (shogi's h8c3+, as
// Fairy-Stockfish writes it). Castling is
// the king's move (e1g1); when that would name an ordinary king move as
// well, or the king does not move, or the variant says so
// (rules.CastlingSpec.KingTakesRook: Chess960), it is king-takes-rook
// (f1h1), as UCI does for Chess960. A drop is the upper-case letter, '@'
// and the square.
func Coord(p *rules.Position, m rules.Move) string {
	v := p.Variant()
	switch m.Kind() {
	case rules.Drop:
		return string(v.Letter(m.Promo())) + "@" + m.To().String()
	case rules.Special:
		if h, ok := v.Ext().(rules.MoveText); ok {
			if s, ok := h.EncodeMove(p, m); ok {
				return s
			}
		}
	case rules.Castle:
		if v.Spec().Castling.KingTakesRook || castleNeedsRook(p, m) {
			return m.From().String() + m.Aux().String()
		}
	}
	s := m.From().String() + m.To().String()
	if m.Kind() == rules.Promotion {
		if v.PieceSpec(m.Promo()).PromotedFrom != 0 {
			return s + "+" // a piece's own promotion (shogi's): h8c3+
		}
		s += strings.ToLower(string(v.Letter(m.Promo())))
	}
	return s
}

// castleNeedsRook reports whether the king's own move would not identify
// castling m: the king stays put, or an ordinary king move has the same
// squares.
func castleNeedsRook(p *rules.Position, m rules.Move) bool {
	if m.From() == m.To() {
		return true
	}
	for _, o := range p.LegalMoves(nil) {
		if o != m && o.From() == m.From() && o.To() == m.To() {
			return true
		}
	}
	return false
}

// ParseCoord finds the legal move with the given coordinate text. Case is
// ignored for the promotion letter. A promotion letter may be left out when
// the pawn has only one choice and cannot stay a pawn (Chatrang's Ferz).
func ParseCoord(p *rules.Position, s string) (rules.Move, error) {
	v := p.Variant()
	b := v.Board()
	if h, ok := v.Ext().(rules.MoveText); ok {
		if m, ok := h.DecodeMove(p, s); ok {
			return m, nil
		}
		// SAN writes a check or mate mark after the variant's text.
		if t := strings.TrimRight(s, "+#"); t != s && t != "" {
			if m, ok := h.DecodeMove(p, t); ok {
				return m, nil
			}
		}
	}
	if len(s) > 16 {
		return 0, moveErr(p, s, ErrSyntax, "too long")
	}
	legal := p.LegalMoves(nil)
	if i := strings.IndexByte(s, '@'); i >= 0 {
		if i != 1 {
			return 0, moveErr(p, s, ErrSyntax, "a drop is a piece letter, @ and a square")
		}
		t := v.TypeOf(s[0])
		to, err := b.ParseSquare(s[2:])
		if t == 0 || err != nil {
			return 0, moveErr(p, s, ErrSyntax, "a drop is a piece letter, @ and a square")
		}
		for _, m := range legal {
			if m.Kind() == rules.Drop && m.Promo() == t && m.To() == to {
				return m, nil
			}
		}
		return 0, moveErr(p, s, ErrIllegal, "")
	}
	from, n, err := b.ScanSquare(s)
	if err != nil {
		return 0, moveErr(p, s, ErrSyntax, "%v", err)
	}
	to, n2, err := b.ScanSquare(s[n:])
	if err != nil {
		return 0, moveErr(p, s, ErrSyntax, "%v", err)
	}
	rest := s[n+n2:]
	var promo rules.Type
	if rest == "+" {
		// A piece's own promotion (shogi's), as Fairy-Stockfish writes it.
		if pc := p.At(from); pc.IsPiece() {
			if u := v.TypeOf(v.PieceSpec(pc.Type()).PromotesTo); u != 0 {
				promo, rest = u, ""
			}
		}
	}
	switch len(rest) {
	case 0:
	case 1:
		promo = v.TypeOf(rest[0])
		if promo == 0 {
			return 0, moveErr(p, s, ErrSyntax, "%q is not a piece", rest)
		}
	default:
		return 0, moveErr(p, s, ErrSyntax, "unexpected %q after the squares", rest)
	}
	var found []rules.Move
	for _, m := range legal {
		if m.From() != from {
			continue
		}
		switch {
		case m.Kind() == rules.Castle && (m.To() == to || m.Aux() == to) && promo == 0:
			found = append(found, m)
		case m.Kind() != rules.Castle && m.To() == to && m.Kind() != rules.Drop:
			if m.Kind() == rules.Promotion {
				if promo == 0 || m.Promo() == promo {
					found = append(found, m)
				}
			} else if promo == 0 {
				found = append(found, m)
			}
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) == 0:
		return 0, moveErr(p, s, ErrIllegal, "")
	}
	// Castling written as the king's move may also be an ordinary king move.
	for _, m := range found {
		if m.Kind() != rules.Castle && m.Kind() != rules.Promotion {
			return m, nil
		}
	}
	return 0, moveErr(p, s, ErrAmbiguous, "add the promotion piece")
}

// SAN returns the Standard Algebraic Notation of a legal move: piece
// letter (none for a pawn), the smallest disambiguation that names the
// piece (file, else rank, else both), x for a capture, the target square,
// =X for a promotion, and + or # if it checks or mates. Castling is O-O
// (towards the higher files) or O-O-O; a drop is N@e4.
func SAN(p *rules.Position, m rules.Move) string {
	return san(p, m, p.LegalMoves(nil))
}

func san(p *rules.Position, m rules.Move, legal []rules.Move) string {
	v := p.Variant()
	var sb strings.Builder
	switch m.Kind() {
	case rules.Castle:
		if m.Aux().File() > m.From().File() {
			sb.WriteString("O-O")
		} else {
			sb.WriteString("O-O-O")
		}
	case rules.Drop:
		sb.WriteByte(v.Letter(m.Promo()))
		sb.WriteByte('@')
		sb.WriteString(m.To().String())
	case rules.Special:
		sb.WriteString(Coord(p, m))
	default:
		from, to := m.From(), m.To()
		pc := p.At(from)
		t := pc.Type()
		capture := m.Kind() == rules.EnPassant || p.At(to).IsPiece()
		pawn := t == v.Pawn()
		if !pawn {
			sb.WriteByte(v.Letter(t))
		}
		// Other pieces of the same type that can go to the same square.
		sameFile, sameRank, others := false, false, false
		for _, o := range legal {
			if o.To() != to || o.From() == from || o.Kind() == rules.Castle || o.Kind() == rules.Drop || o.Kind() == rules.Special {
				continue
			}
			if p.At(o.From()).Type() != t {
				continue
			}
			others = true
			if o.From().File() == from.File() {
				sameFile = true
			}
			if o.From().Rank() == from.Rank() {
				sameRank = true
			}
		}
		switch {
		case pawn && capture:
			sb.WriteByte(geom.FileName(from.File()))
			if others && sameFile {
				sb.WriteString(fmt.Sprint(from.Rank() + 1))
			}
		case !others:
		case !sameFile:
			sb.WriteByte(geom.FileName(from.File()))
		case !sameRank:
			sb.WriteString(fmt.Sprint(from.Rank() + 1))
		default:
			sb.WriteString(from.String())
		}
		if capture {
			sb.WriteByte('x')
		}
		sb.WriteString(to.String())
		if m.Kind() == rules.Promotion {
			sb.WriteByte('=')
			sb.WriteByte(v.Letter(m.Promo()))
		}
	}
	p.Make(m)
	if p.InCheck() {
		if p.HasLegalMove() {
			sb.WriteByte('+')
		} else {
			sb.WriteByte('#')
		}
	}
	p.Unmake()
	return sb.String()
}

// ParseSAN finds the legal move a SAN text names. It accepts what people
// and programs write: with or without x, check and mate marks, = before a
// promotion letter, annotations (!, ?), "e.p.", 0-0 for O-O, and a pawn
// promotion letter without = (e8Q). A piece letter must be upper case.
func ParseSAN(p *rules.Position, s string) (rules.Move, error) {
	v := p.Variant()
	b := v.Board()
	orig := s
	if len(s) > 24 {
		return 0, moveErr(p, orig, ErrSyntax, "too long")
	}
	s = strings.TrimSuffix(s, "e.p.")
	s = strings.TrimRight(s, "+#!?")
	if s == "" {
		return 0, moveErr(p, orig, ErrSyntax, "empty")
	}
	legal := p.LegalMoves(nil)
	switch s {
	case "O-O", "0-0", "O-O-O", "0-0-0":
		queenside := len(s) == 5
		for _, m := range legal {
			if m.Kind() == rules.Castle && (m.Aux().File() < m.From().File()) == queenside {
				return m, nil
			}
		}
		return 0, moveErr(p, orig, ErrIllegal, "cannot castle")
	}
	if i := strings.IndexByte(s, '@'); i >= 0 {
		t := v.Pawn()
		if i == 1 {
			t = v.TypeOf(s[0])
		} else if i != 0 {
			t = 0
		}
		to, err := b.ParseSquare(s[i+1:])
		if t == 0 || err != nil || (i == 1 && (s[0] < 'A' || s[0] > 'Z')) {
			return 0, moveErr(p, orig, ErrSyntax, "a drop is a piece letter, @ and a square")
		}
		for _, m := range legal {
			if m.Kind() == rules.Drop && m.Promo() == t && m.To() == to {
				return m, nil
			}
		}
		return 0, moveErr(p, orig, ErrIllegal, "")
	}

	// Promotion: "=Q", or a trailing upper-case letter after the square.
	var promo rules.Type
	if n := len(s); n >= 2 && s[n-1] >= 'A' && s[n-1] <= 'Z' {
		promo = v.TypeOf(s[n-1])
		if promo == 0 {
			return 0, moveErr(p, orig, ErrSyntax, "%q is not a piece", s[n-1:])
		}
		s = strings.TrimSuffix(s[:n-1], "=")
	} else if n >= 1 && s[n-1] == '=' {
		return 0, moveErr(p, orig, ErrSyntax, "promotion piece missing after =")
	}
	// Target square: the last file letter followed by digits.
	j := len(s)
	for j > 0 && s[j-1] >= '0' && s[j-1] <= '9' {
		j--
	}
	if j == 0 || j == len(s) || s[j-1] < 'a' || s[j-1] > 'p' {
		return 0, moveErr(p, orig, ErrSyntax, "no target square")
	}
	to, err := b.ParseSquare(s[j-1:])
	if err != nil {
		return 0, moveErr(p, orig, ErrSyntax, "%v", err)
	}
	head := s[:j-1]
	head = strings.TrimSuffix(head, "x")
	head = strings.TrimSuffix(head, "-")
	var piece rules.Type
	if head != "" && head[0] >= 'A' && head[0] <= 'Z' {
		piece = v.TypeOf(head[0])
		if piece == 0 {
			return 0, moveErr(p, orig, ErrSyntax, "%q is not a piece of %s", head[:1], v.Name())
		}
		head = head[1:]
	} else {
		piece = v.Pawn()
		if piece == 0 {
			return 0, moveErr(p, orig, ErrSyntax, "no piece letter")
		}
	}
	// Disambiguation: an optional file letter and an optional rank.
	file, rank := -1, -1
	if head != "" && head[0] >= 'a' && head[0] <= 'p' {
		file = int(head[0] - 'a')
		head = head[1:]
	}
	if head != "" {
		r := 0
		for _, c := range []byte(head) {
			if c < '0' || c > '9' || r > 16 {
				return 0, moveErr(p, orig, ErrSyntax, "cannot read %q", head)
			}
			r = r*10 + int(c-'0')
		}
		if r < 1 {
			return 0, moveErr(p, orig, ErrSyntax, "cannot read %q", head)
		}
		rank = r - 1
	}
	var found []rules.Move
	for _, m := range legal {
		if m.To() != to || m.Kind() == rules.Castle || m.Kind() == rules.Drop || m.Kind() == rules.Special {
			continue
		}
		if p.At(m.From()).Type() != piece {
			continue
		}
		if (file >= 0 && m.From().File() != file) || (rank >= 0 && m.From().Rank() != rank) {
			continue
		}
		if m.Kind() == rules.Promotion {
			if promo != 0 && m.Promo() != promo {
				continue
			}
		} else if promo != 0 {
			continue
		}
		found = append(found, m)
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return 0, moveErr(p, orig, ErrIllegal, "")
	}
	if promo == 0 && found[0].Kind() == rules.Promotion {
		return 0, moveErr(p, orig, ErrAmbiguous, "add the promotion piece")
	}
	return 0, moveErr(p, orig, ErrAmbiguous, "add the origin file or rank")
}

// ParseMove reads a move in SAN or in coordinate notation.
func ParseMove(p *rules.Position, s string) (rules.Move, error) {
	s = strings.TrimSpace(s)
	m, err := ParseSAN(p, s)
	if err == nil {
		return m, nil
	}
	m2, err2 := ParseCoord(p, s)
	if err2 == nil {
		return m2, nil
	}
	if h, ok := p.Variant().Ext().(rules.MoveText); ok {
		if why := h.ExplainMove(p, s); why != nil {
			return 0, moveErr(p, s, ErrIllegal, "%v", why)
		}
	}
	if errors.Is(err, ErrSyntax) && (looksCoord(p, s) || !errors.Is(err2, ErrSyntax)) {
		return 0, err2
	}
	return 0, err
}

// looksCoord reports whether s begins as coordinate notation does: a
// square followed by a file letter. When neither reading of a text
// works, the error of the reading it looks like is the one that helps.
func looksCoord(p *rules.Position, s string) bool {
	_, n, err := p.Variant().Board().ScanSquare(s)
	return err == nil && n < len(s) && s[n] >= 'a' && s[n] <= 'p'
}
