package notation

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/rules"
)

// ErrTurn is wrapped by errors about a turn token: an outcome mark the
// move does not have, a turn that ends before its last element or goes on
// after it, an empty element, an unclosed comment.
var ErrTurn = errors.New("bad turn token")

// maxMark bounds the suffix ReadGame and ParseTurn try to split off as a
// mark when a move has no outcome with it, to name the move in the error.
const maxMark = 4

// Mark returns the text a game record appends to the move m, played from
// p, for its outcome k: the outcome's Mark ("~" for a failed Vazir try, ""
// for a move as written). An outcome m does not have gives "".
func Mark(p *rules.Position, m rules.Move, k int) string {
	outs := p.Outcomes(m)
	if k < 0 || k >= len(outs) {
		return ""
	}
	return outs[k].Mark
}

// markedOutcome returns the index of the first outcome of m whose Mark is
// mark, or -1.
func markedOutcome(p *rules.Position, m rules.Move, mark string) int {
	return slices.IndexFunc(p.Outcomes(m), func(o rules.Outcome) bool { return o.Mark == mark })
}

// ParseElement reads one element of a turn token in p: a move in SAN or
// coordinates, followed by the Mark of its outcome, e.g. "Nxe5~" (the
// capture Nxe5 with the outcome marked "~") or "Bxf7+" (outcome 0). The
// longest non-empty Mark of a legal move's outcome that ends the element
// and leaves a move with that outcome is taken; without one the move's
// unmarked outcome. A mark the named move has no outcome for (a "~" on a
// certain capture) is an error wrapping ErrTurn.
func ParseElement(p *rules.Position, e string) (rules.Move, int, error) {
	var marks []string
	if p.Variant().Chance() {
		for _, m := range p.LegalMoves(nil) {
			for _, o := range p.Outcomes(m) {
				if o.Mark != "" && len(o.Mark) < len(e) && strings.HasSuffix(e, o.Mark) && !slices.Contains(marks, o.Mark) {
					marks = append(marks, o.Mark)
				}
			}
		}
		slices.SortFunc(marks, func(a, b string) int { return len(b) - len(a) })
	}
	for _, mark := range marks {
		m, err := ParseMove(p, e[:len(e)-len(mark)])
		if err != nil {
			continue
		}
		if k := markedOutcome(p, m, mark); k >= 0 {
			return m, k, nil
		}
	}
	m, err := ParseMove(p, e)
	if err == nil {
		if k := markedOutcome(p, m, ""); k >= 0 {
			return m, k, nil
		}
		return 0, 0, fmt.Errorf("%w: %s needs the mark of its outcome", ErrTurn, e)
	}
	// A suffix of punctuation may be a mark the move does not have.
	for n := 1; n <= maxMark && n < len(e) && !isAlnum(e[len(e)-n]); n++ {
		if m, err2 := ParseMove(p, e[:len(e)-n]); err2 == nil {
			return 0, 0, fmt.Errorf("%w: %s has no outcome marked %q", ErrTurn, SAN(p, m), e[len(e)-n:])
		}
	}
	return 0, 0, err
}

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// FormatTurn writes the plies of one whole turn, played from p, as a turn
// token (R-PGN, as for Vazir): each ply's SAN followed by the Mark of its
// outcome, joined by ",", e.g. "Nxe5~,Bxf7+" or "Rxg3~,Rxg3~,Kh2". A ply's
// comments follow its element in braces ("Nxe5~{u=6/9},Bxf7+", a '}' in a
// comment written as ')'); NAGs are not written. p is left as it was.
// The plies must be one complete turn: each is legal with an outcome its
// move has, every ply but the last keeps the turn, and after the last the
// turn has passed or the game is over. Errors wrap ErrTurn.
func FormatTurn(p *rules.Position, plies []game.Ply) (string, error) {
	if len(plies) == 0 {
		return "", fmt.Errorf("%w: no plies", ErrTurn)
	}
	q := p.Clone()
	mover := q.Turn()
	var sb strings.Builder
	for i, pl := range plies {
		if i > 0 {
			sb.WriteByte(',')
		}
		if !q.Playable(pl.Move) {
			return "", fmt.Errorf("%w: element %d is not a legal move in %s", ErrTurn, i+1, q.FEN())
		}
		if n := len(q.Outcomes(pl.Move)); pl.Outcome < 0 || pl.Outcome >= n {
			return "", fmt.Errorf("%w: element %d (%s) has no outcome %d (it has %d)", ErrTurn, i+1, SAN(q, pl.Move), pl.Outcome, n)
		}
		sb.WriteString(SAN(q, pl.Move))
		sb.WriteString(Mark(q, pl.Move, pl.Outcome))
		for _, c := range pl.Comments {
			sb.WriteString("{" + strings.ReplaceAll(c, "}", ")") + "}")
		}
		q.MakeOutcome(pl.Move, pl.Outcome)
		if err := checkTurn(q, mover, i+1, len(plies)); err != nil {
			return "", err
		}
	}
	return sb.String(), nil
}

// checkTurn checks where the element n of a turn token of last elements
// left the turn of mover: over after the last, going on before it.
func checkTurn(q *rules.Position, mover rules.Color, n, last int) error {
	over := game.TurnOver(q, mover)
	switch {
	case n < last && over:
		return fmt.Errorf("%w: the turn ends at element %d of %d", ErrTurn, n, last)
	case n == last && !over:
		return fmt.Errorf("%w: the turn does not end after element %d", ErrTurn, n)
	}
	return nil
}

// ParseTurn reads a turn token (see FormatTurn) in p and returns its plies;
// p is left as it was. Each element is read by ParseElement; comments in
// braces after an element ("Nxe5~{u=6/9}") become the ply's comments. The
// token must be one complete turn. Errors wrap ErrTurn, or a *MoveError
// for an element that names no legal move.
func ParseTurn(p *rules.Position, token string) ([]game.Ply, error) {
	elems, err := splitTurn(strings.TrimSpace(token))
	if err != nil {
		return nil, err
	}
	q := p.Clone()
	mover := q.Turn()
	var plies []game.Ply
	for i, n := 0, 0; i < len(elems); i += n {
		// The elements up to the first with comments after it may make
		// one move whose text holds commas.
		texts := []string{elems[i].text}
		for j := i + 1; j < len(elems) && len(elems[j-1].comments) == 0; j++ {
			texts = append(texts, elems[j].text)
		}
		n = nextElement(q, texts)
		text := strings.Join(texts[:n], ",")
		m, k, err := ParseElement(q, text)
		if err != nil {
			return nil, fmt.Errorf("%w: element %d (%s): %w", ErrTurn, len(plies)+1, text, err)
		}
		q.MakeOutcome(m, k)
		plies = append(plies, game.Ply{Move: m, Outcome: k, Comments: elems[i+n-1].comments})
		switch over := game.TurnOver(q, mover); {
		case over && i+n < len(elems):
			return nil, fmt.Errorf("%w: the turn ends at element %d, before %q", ErrTurn, len(plies), elems[i+n].text)
		case !over && i+n == len(elems):
			return nil, fmt.Errorf("%w: the turn does not end after element %d", ErrTurn, len(plies))
		}
	}
	return plies, nil
}

// nextElement returns how many of the comma-separated parts, from the
// first, make the next element of a turn played from p: the most that read
// as one move (a variant's own move text may hold commas, as Crazy Chess's
// disguise chain "Da2:b2,c2"), else 1.
func nextElement(p *rules.Position, parts []string) int {
	for k := len(parts); k > 1; k-- {
		if _, _, err := ParseElement(p, strings.Join(parts[:k], ",")); err == nil {
			return k
		}
	}
	return 1
}

// element is one element of a turn token with the comments after it.
type element struct {
	text     string
	comments []string
}

// splitTurn splits a turn token at the commas outside braces.
func splitTurn(token string) ([]element, error) {
	var elems []element
	var cur element
	var text []byte
	end := func() error {
		cur.text = strings.TrimSpace(string(text))
		if cur.text == "" {
			return fmt.Errorf("%w: %q: element %d is empty", ErrTurn, token, len(elems)+1)
		}
		elems = append(elems, cur)
		cur, text = element{}, text[:0]
		return nil
	}
	for i := 0; i < len(token); i++ {
		switch c := token[i]; c {
		case '{':
			j := strings.IndexByte(token[i:], '}')
			if j < 0 {
				return nil, fmt.Errorf("%w: %q: unclosed comment", ErrTurn, token)
			}
			cur.comments = append(cur.comments, strings.TrimSpace(token[i+1:i+j]))
			i += j
		case ',':
			if err := end(); err != nil {
				return nil, err
			}
		default:
			text = append(text, c)
		}
	}
	if err := end(); err != nil {
		return nil, err
	}
	return elems, nil
}
