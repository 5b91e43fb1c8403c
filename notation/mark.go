package notation

import "github.com/anychess/anychess/rules"

// ParseMarked reads a move with parse (ParseMove, ParseCoord), optionally
// followed by the Mark of one of its outcomes: "exd5~" is the capture exd5
// with the outcome whose Mark is "~" (a failed Vazir try). It returns the
// move, the outcome (0 when there is no mark) and whether a mark was given.
// A mark that is not one of the move's outcomes is an error.
func ParseMarked(p *rules.Position, text string, parse func(*rules.Position, string) (rules.Move, error)) (rules.Move, int, bool, error) {
	m, err := parse(p, text)
	if err == nil {
		return m, 0, false, nil
	}
	for i := len(text) - 1; i > 0; i-- {
		m, err2 := parse(p, text[:i])
		if err2 != nil {
			continue
		}
		outs := p.Outcomes(m)
		for k, o := range outs {
			if o.Mark != "" && o.Mark == text[i:] {
				return m, k, true, nil
			}
		}
		if p.Variant().Chance() {
			return rules.NoMove, 0, false, moveErr(p, text, ErrIllegal, "%s has no outcome marked %q", text[:i], text[i:])
		}
		break
	}
	return rules.NoMove, 0, false, err
}
