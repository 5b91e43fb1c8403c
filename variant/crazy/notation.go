package crazy

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// The move syntax of section 2.11, long algebraic without spaces, with two
// changes that keep every move one PGN symbol (PGN reserves parentheses
// and brackets): a path capture follows the target without parentheses,
// and the promotions of other pawns follow '&' each. The specification's
// forms, "Ne4-f6(xe5/2)" and "e7-e8=Q[a8=N,b8=Q]", are read too.
//
//	Nf3/2-e5        a piece move: [piece] origin[/index] sep target
//	Ng1xf3/1        a knight capturing the passenger at index 1
//	Ne4-f6xe5/2     a knight capturing on its path
//	Kd4xe5-d4       a king's two steps (one step, Kd4xe5, only when the
//	                first step removed the king under KingStep1Immunity=None)
//	O-O,g1^f1       castling, then the king's second step
//	Qd4*            an all-round capture
//	De3/1:e2,d2,c2  a disguise: the disguised piece, then the pawns of the
//	                chain in order (a pawn inside a stack as sq/index)
//	e7-e8=Q&a8=N    promotions: =X for the moving pawn's own square, the
//	                mover's other promoting pawns each after '&'
//	DENY, DRAW
//
// sep is '-' onto an empty square, 'x' for a capture (en passant too) and
// '^' for entering the Rook on the square. A pawn move has no piece letter
// (P is accepted); an index 0 is not written (/0 is accepted); promotions
// may be written in any order and for the moving pawn either way.

// formatted is a move's text in parts: the body, and the promotions as a
// map from square to letter.
type formatted struct {
	body   string
	pawn   bool // the mover is a pawn (piece move or disguise): its own promotion is written =X
	to     int
	promos []promoText
}

type promoText struct {
	b      int
	letter byte
}

// String writes the canonical text.
func (f formatted) String() string {
	var sb strings.Builder
	sb.WriteString(f.body)
	rest := make([]promoText, 0, len(f.promos))
	for _, pr := range f.promos {
		if f.pawn && pr.b == f.to {
			sb.WriteByte('=')
			sb.WriteByte(pr.letter)
		} else {
			rest = append(rest, pr)
		}
	}
	slices.SortFunc(rest, func(a, b promoText) int { return a.b - b.b })
	for _, pr := range rest {
		sb.WriteByte('&')
		sb.WriteString(sqOf(pr.b).String())
		sb.WriteByte('=')
		sb.WriteByte(pr.letter)
	}
	return sb.String()
}

// place writes a square with its stack index, which is left out when 0.
func place(b, i int) string {
	if i == 0 {
		return sqOf(b).String()
	}
	return sqOf(b).String() + "/" + strconv.Itoa(i)
}

// aroundText is the text of the all-round capture by the Queen at index i
// of square b: "Qd4*".
func aroundText(b, i int) string { return "Q" + place(b, i) + "*" }

// disguiseHead is the start of the text of a disguise of the piece at
// index i of square b, before the pawns of the chain: "De3/1:".
func disguiseHead(b, i int) string { return "D" + place(b, i) + ":" }

// sepChar returns the separator character of a sep value (king steps use
// sepCapture and sepEnter alike).
func sepChar(s uint8) byte {
	switch s {
	case sepCapture, sepEP:
		return 'x'
	case sepEnter:
		return '^'
	}
	return '-'
}

// bodyText writes the text of d without promotions, and reports whether
// the mover is a pawn.
func (e *engine) bodyText(d *mv, us rules.Color) (string, bool) {
	var sb strings.Builder
	pawn := false
	switch d.kind {
	case kDeny:
		return "DENY", false
	case kDraw:
		return "DRAW", false
	case kPiece:
		pc := e.s.cells[d.from][d.fromIdx]
		pawn = pc.Type() == e.z.pawn
		if !pawn {
			sb.WriteByte(e.p.Variant().Letter(pc.Type()))
		}
		sb.WriteString(place(d.from, d.fromIdx))
		sb.WriteByte(sepChar(d.sep))
		sb.WriteString(place(d.to, d.toIdx))
		if d.path != none {
			sb.WriteString("x" + place(d.path, d.pathIdx))
		}
	case kKing:
		sb.WriteString("K" + place(d.from, d.fromIdx))
		sb.WriteByte(sepChar(d.sep1))
		sb.WriteString(sqOf(d.step1).String())
		if d.sep2 != sepNone {
			sb.WriteByte(sepChar(d.sep2))
			sb.WriteString(sqOf(d.to).String())
		}
	case kCastle:
		_, _, kt, _, _, _ := castleSquares(us, d.long)
		if d.long {
			sb.WriteString("O-O-O,")
		} else {
			sb.WriteString("O-O,")
		}
		sb.WriteString(sqOf(kt).String())
		sb.WriteByte(sepChar(d.sep2))
		sb.WriteString(sqOf(d.to).String())
	case kAround:
		sb.WriteString(aroundText(d.from, d.fromIdx))
	case kDisguise:
		pawn = true
		var cbuf [maxLinks + 2]loc
		chain, _ := e.chainOf(d, us, cbuf[:0])
		sb.WriteString(disguiseHead(d.to, d.toIdx))
		for k, l := range chain[1:] {
			if k > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(place(int(l.b), int(l.i)))
		}
	}
	return sb.String(), pawn
}

// promos returns the promotions of d: the mover's promoting pawns (found
// by making the move and taking it back) with their choices.
func (e *engine) promos(d *mv, us rules.Color, dst []promoText) []promoText {
	if d.kind == kDeny || d.kind == kDraw {
		return dst
	}
	m := e.s.save()
	e.play(d, us)
	for k := range e.sc.nPromo {
		dst = append(dst, promoText{b: int(e.sc.promoSq[k]), letter: "QRBN"[d.choice(k)]})
	}
	e.s.rollback(e.p, m)
	return dst
}

// hooksOf returns the rules of p's variant, or false if it is not Crazy
// Chess.
func hooksOf(p *rules.Position) (*crazy, bool) {
	if s, ok := p.State().(*state); ok && s.z != nil {
		return s.z, true
	}
	v := p.Variant()
	if v.Name() != Name {
		return nil, false
	}
	tags := map[string]string{}
	for _, o := range v.Options() {
		tags[o.Name] = o.Value
	}
	o, err := OptionsFromTags(tags)
	if err != nil {
		return nil, false
	}
	z := &crazy{o: o}
	z.tables()
	z.bind(v)
	return z, true
}

// FormatMove returns the text of m, a legal move in p (section 2.11). It
// returns "" for a move that is not legal in p. p is left as it was.
func FormatMove(p *rules.Position, m rules.Move) string {
	z, ok := hooksOf(p)
	if !ok {
		return ""
	}
	s, _ := z.EncodeMove(p, m)
	return s
}

// EncodeMove gives the text of a move (MoveText). Only a legal move has a text: the
// text of promotions comes from making the move.
func (z *crazy) EncodeMove(p *rules.Position, m rules.Move) (string, bool) {
	d, ok := decode(m)
	if !ok {
		return "", false
	}
	e := z.newEngine(p)
	buf := e.sc.acquire()
	buf = e.legalMoves(buf)
	ok = slices.Contains(buf, m)
	e.sc.release(buf)
	if !ok {
		return "", false
	}
	f := e.format(&d)
	return f.String(), true
}

// format returns the text of d in parts.
func (e *engine) format(d *mv) formatted {
	us := e.p.Turn()
	body, pawn := e.bodyText(d, us)
	return e.withPromos(d, us, body, pawn)
}

// withPromos returns the text of d in parts, given its body (bodyText).
func (e *engine) withPromos(d *mv, us rules.Color, body string, pawn bool) formatted {
	var buf [16]promoText
	return formatted{body: body, pawn: pawn, to: d.to, promos: e.promos(d, us, buf[:0])}
}

// ParseMove returns the legal move of p that s names in the syntax of
// section 2.11. Errors are *notation.MoveError wrapping notation.ErrSyntax
// or notation.ErrIllegal.
func ParseMove(p *rules.Position, s string) (rules.Move, error) {
	z, ok := hooksOf(p)
	if !ok {
		return 0, &notation.MoveError{Text: s, Err: notation.ErrSyntax, Msg: "not a Crazy Chess position"}
	}
	return z.parseMove(p, s)
}

// DecodeMove reads the text of a move (MoveText).
func (z *crazy) DecodeMove(p *rules.Position, s string) (rules.Move, bool) {
	m, err := z.parseMove(p, s)
	return m, err == nil
}

func (z *crazy) parseMove(p *rules.Position, text string) (rules.Move, error) {
	fail := func(err error, format string, args ...any) (rules.Move, error) {
		return 0, &notation.MoveError{Text: text, FEN: FEN(p), Err: err, Msg: fmt.Sprintf(format, args...)}
	}
	s := strings.TrimSpace(text)
	if len(s) > 120 {
		return fail(notation.ErrSyntax, "too long")
	}
	want, err := parseText(s)
	if err != nil {
		return fail(notation.ErrSyntax, "%v", err)
	}
	e := z.newEngine(p)
	us := p.Turn()
	buf := e.sc.acquire()
	defer func() { e.sc.release(buf) }()
	buf = e.legalMoves(buf)
	for _, m := range buf {
		d, _ := decode(m)
		body, pawn := e.bodyText(&d, us)
		if body != want.body {
			continue
		}
		got := e.withPromos(&d, us, body, pawn)
		w := want
		w.pawn, w.to = pawn, d.to
		if got.String() == w.withTarget().String() {
			return m, nil
		}
	}
	return fail(notation.ErrIllegal, "%v", z.ExplainMove(p, s))
}

// scanner reads the move syntax.
type scanner struct {
	s string
	i int
}

func (sc *scanner) peek() byte {
	if sc.i < len(sc.s) {
		return sc.s[sc.i]
	}
	return 0
}

func (sc *scanner) eat(c byte) bool {
	if sc.peek() == c {
		sc.i++
		return true
	}
	return false
}

// square reads a square a1..h8.
func (sc *scanner) square() (int, error) {
	sq, n, err := board.ScanSquare(sc.s[sc.i:])
	switch {
	case err == nil:
		sc.i += n
		return idxOf(sq), nil
	case sc.i+2 > len(sc.s):
		return 0, fmt.Errorf("a square expected at %d", sc.i)
	}
	return 0, fmt.Errorf("a square expected at %d, found %q", sc.i, sc.s[sc.i:sc.i+2])
}

// place reads a square with an optional /index.
func (sc *scanner) place() (int, int, error) {
	b, err := sc.square()
	if err != nil {
		return 0, 0, err
	}
	if !sc.eat('/') {
		return b, 0, nil
	}
	start := sc.i
	for sc.peek() >= '0' && sc.peek() <= '9' {
		sc.i++
	}
	n, err := strconv.Atoi(sc.s[start:sc.i])
	if err != nil || n >= MaxPieces || sc.i-start > 2 {
		return 0, 0, fmt.Errorf("a stack index 0..%d expected at %d", MaxPieces-1, start)
	}
	return b, n, nil
}

// sep reads a separator.
func (sc *scanner) sep() (byte, error) {
	switch c := sc.peek(); c {
	case '-', 'x', '^':
		sc.i++
		return c, nil
	}
	return 0, fmt.Errorf("-, x or ^ expected at %d", sc.i)
}

// parseText reads a move's text into its canonical parts (the square of a
// =X promotion is filled in by the caller).
func parseText(s string) (formatted, error) {
	var f formatted
	if s == "DENY" || s == "DRAW" {
		f.body = s
		return f, nil
	}
	sc := &scanner{s: s}
	var body strings.Builder
	var err error
	switch {
	case strings.HasPrefix(s, "O-O-O,"), strings.HasPrefix(s, "O-O,"):
		comma := strings.IndexByte(s, ',')
		sc.i = comma + 1
		body.WriteString(s[:comma+1])
		err = sc.steps(&body)
	case strings.HasPrefix(s, "D"):
		sc.i = 1
		f.pawn = true
		err = sc.disguise(&body)
	case strings.HasPrefix(s, "K"):
		sc.i = 1
		err = sc.king(&body)
	default:
		f.pawn, err = sc.piece(&body)
	}
	if err != nil {
		return f, err
	}
	f.body = body.String()
	if err := sc.promotions(&f); err != nil {
		return f, err
	}
	if sc.i != len(s) {
		return f, fmt.Errorf("unexpected %q at %d", s[sc.i:], sc.i)
	}
	return f, nil
}

// sepSquare reads a separator and a square and writes them to body.
func (sc *scanner) sepSquare(body *strings.Builder) error {
	c, err := sc.sep()
	if err != nil {
		return err
	}
	t, err := sc.square()
	if err != nil {
		return err
	}
	body.WriteByte(c)
	body.WriteString(sqOf(t).String())
	return nil
}

// steps reads a square, then a separator and a square (castling's second
// step).
func (sc *scanner) steps(body *strings.Builder) error {
	b, err := sc.square()
	if err != nil {
		return err
	}
	body.WriteString(sqOf(b).String())
	return sc.sepSquare(body)
}

// king reads origin sep sq [sep sq].
func (sc *scanner) king(body *strings.Builder) error {
	b, i, err := sc.place()
	if err != nil {
		return err
	}
	body.WriteString("K" + place(b, i))
	if err := sc.sepSquare(body); err != nil {
		return err
	}
	if !strings.ContainsRune("-x^", rune(sc.peek())) {
		return nil
	}
	return sc.sepSquare(body)
}

// disguise reads target ":" sq {"," sq}.
func (sc *scanner) disguise(body *strings.Builder) error {
	b, i, err := sc.place()
	if err != nil {
		return err
	}
	body.WriteString(disguiseHead(b, i))
	if !sc.eat(':') {
		return fmt.Errorf(": expected at %d", sc.i)
	}
	for k := 0; ; k++ {
		pb, pi, err := sc.place()
		if err != nil {
			return err
		}
		if k > 0 {
			body.WriteByte(',')
		}
		body.WriteString(place(pb, pi))
		if !sc.eat(',') {
			return nil
		}
	}
}

// piece reads [Piece] origin sep target [x sq[/idx]] (or the path capture
// in parentheses, "(xsq[/idx])") or Q origin *, and
// reports whether the mover is a pawn.
func (sc *scanner) piece(body *strings.Builder) (bool, error) {
	letter := byte(0)
	if c := sc.peek(); strings.IndexByte("QRBNP", c) >= 0 {
		letter = c
		sc.i++
	}
	b, i, err := sc.place()
	if err != nil {
		return false, err
	}
	if letter == 'Q' && sc.eat('*') {
		body.WriteString(aroundText(b, i))
		return false, nil
	}
	if letter != 0 && letter != 'P' {
		body.WriteByte(letter)
	}
	body.WriteString(place(b, i))
	c, err := sc.sep()
	if err != nil {
		return false, err
	}
	t, ti, err := sc.place()
	if err != nil {
		return false, err
	}
	body.WriteByte(c)
	body.WriteString(place(t, ti))
	paren := sc.eat('(')
	if paren && sc.peek() != 'x' {
		return false, fmt.Errorf("(x expected at %d", sc.i-1)
	}
	if sc.eat('x') {
		pb, pi, err := sc.place()
		if err != nil {
			return false, err
		}
		if paren && !sc.eat(')') {
			return false, fmt.Errorf(") expected at %d", sc.i)
		}
		body.WriteString("x" + place(pb, pi))
	}
	return letter == 0 || letter == 'P', nil
}

// promotions reads ["=" X] then {"&" sq "=" X} or ["[" sq "=" X {"," sq
// "=" X} "]"]; the =X has square -1 until the caller knows it.
func (sc *scanner) promotions(f *formatted) error {
	letter := func() (byte, error) {
		c := sc.peek()
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if strings.IndexByte("QRBN", c) < 0 || sc.i >= len(sc.s) {
			return 0, fmt.Errorf("a promotion piece Q, R, B or N expected at %d", sc.i)
		}
		sc.i++
		return c, nil
	}
	seen := map[int]bool{}
	if sc.eat('=') {
		l, err := letter()
		if err != nil {
			return err
		}
		f.promos = append(f.promos, promoText{b: -1, letter: l})
		seen[-1] = true
	}
	if sc.peek() == '&' {
		for sc.eat('&') {
			if err := sc.promotion(f, seen, letter); err != nil {
				return err
			}
		}
		return nil
	}
	if !sc.eat('[') {
		return nil
	}
	for {
		if err := sc.promotion(f, seen, letter); err != nil {
			return err
		}
		if sc.eat(']') {
			return nil
		}
		if !sc.eat(',') {
			return fmt.Errorf(", or ] expected at %d", sc.i)
		}
	}
}

// promotion reads sq "=" X, one promotion of a pawn other than the mover.
func (sc *scanner) promotion(f *formatted, seen map[int]bool, letter func() (byte, error)) error {
	b, err := sc.square()
	if err != nil {
		return err
	}
	if !sc.eat('=') {
		return fmt.Errorf("= expected at %d", sc.i)
	}
	l, err := letter()
	if err != nil {
		return err
	}
	if seen[b] {
		return fmt.Errorf("%v is promoted twice", sqOf(b))
	}
	seen[b] = true
	f.promos = append(f.promos, promoText{b: b, letter: l})
	return nil
}

// withTarget returns f with the square of a =X promotion filled in: the
// move's target.
func (f formatted) withTarget() formatted {
	g := f
	g.promos = slices.Clone(f.promos)
	for k := range g.promos {
		if g.promos[k].b == -1 {
			g.promos[k].b = f.to
		}
	}
	return g
}
