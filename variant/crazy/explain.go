package crazy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/anychess/anychess/rules"
)

// ExplainMove (MoveText) explains a refused text: a text in the move syntax of
// section 2.11 that names no legal move is an illegal move, with the
// reason where one can be told (a denial or a draw claim that is not
// possible, the replay of a denied move), not a text the syntax cannot
// read. A text the syntax cannot read is left to the core's notations.
func (z *crazy) ExplainMove(p *rules.Position, s string) error {
	s = strings.TrimSpace(s)
	f, err := parseText(s)
	if err != nil {
		return nil
	}
	e := z.newEngine(p)
	switch f.body {
	case "DENY":
		return e.whyNoDenial()
	case "DRAW":
		return e.whyNoDraw()
	}
	if den := e.s.v.denied; den != rules.NoMove {
		if d, ok := decode(den); ok {
			if body, _ := e.bodyText(&d, p.Turn()); body == f.body {
				return errors.New("the denied move may not be played again (CC-6, CC-7)")
			}
		}
	}
	if p.Status().Over() {
		return errors.New("the game is over")
	}
	return fmt.Errorf("%s has no such move", p.Turn())
}

// whyNoDenial says why the side to move may not deny the last move, or
// returns a generic reason if it may (the caller asks only when DENY was
// not legal).
func (e *engine) whyNoDenial() error {
	s, o := e.s, e.z.o
	us := e.p.Turn()
	n := len(s.frames)
	switch {
	case o.Denial == DenialOff:
		return errors.New("denial is off in this game (Denial=Off)")
	case s.v.drawn || e.over():
		return errors.New("the game is over")
	case n == 0:
		return errors.New("no move to deny: the last move is not known (a position set up from FEN has none)")
	}
	f := &s.frames[n-1]
	switch {
	case f.kind == kDeny || f.kind == kDraw:
		return errors.New("a denial or a draw claim cannot be denied")
	case f.mover == us:
		return errors.New("the last move was the side to move's own")
	case f.before.immune == int8(f.mover):
		return errors.New("the move after a denial cannot be denied (CC-6, CC-8)")
	case f.immune:
		return errors.New("a Knight move without a path capture cannot be denied (CC-7)")
	case s.v.holder != us:
		return fmt.Errorf("the right to deny is %s's (CC-5)", s.v.holder)
	case o.Denial == Soft && isKing(f.kind):
		return errors.New("a King move cannot be denied under Denial=Soft (CC-11)")
	case !o.DenyLastMoveAllowed:
		return errors.New("the only legal move may not be denied (DenyLastMoveAllowed=false, CC-10)")
	}
	return errors.New("no denial is possible here")
}

// whyNoDraw says why the side to move may not claim the CC-12 draw.
func (e *engine) whyNoDraw() error {
	v := &e.s.v
	us := e.p.Turn()
	switch {
	case !e.z.o.DenialDrawRule:
		return errors.New("no draw may be claimed: DenialDrawRule is off (CC-12)")
	case v.used < 3:
		return fmt.Errorf("a draw may be claimed after the third denial; %d so far (CC-12)", v.used)
	case v.holder != us:
		return fmt.Errorf("only the holder of the right, %s, may claim the draw (CC-12)", v.holder)
	case e.inCheck(us):
		return errors.New("a player in check may not claim the draw (CC-12)")
	}
	return errors.New("the game is over")
}
