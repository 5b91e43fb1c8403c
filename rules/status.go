package rules

import (
	"fmt"
	"strings"
)

// Status judges whether the game has ended in this position, by the
// variant's rules, in this order: the variant's End hook; a side without a
// royal piece (possible only from a position where the side not to move was
// in check); a bare king;
// checkmate and stalemate; dead material; the n-move rule; the variant's
// HistoryEnd hook; repetition; the move cap. A checkmate on the move that reaches the n-move limit stands.
func (p *Position) Status() Status {
	v := p.v
	e := &v.spec.End
	if h := v.h.end; h != nil {
		if st, ok := h.End(p); ok {
			return st
		}
	}
	us := p.turn
	if v.royalMask != 0 && p.royalCount(us) == 0 {
		return Status{Result: Win(us.Other()), Reason: ReasonNoRoyal, Detail: fmt.Sprintf("%s has no royal piece left and loses", us)}
	}
	if e.BareKing != None && v.royalMask != 0 && p.n[us] > 0 && p.n[us] == p.royalCount(us) {
		return valueStatus(e.BareKing, us, ReasonBareKing, fmt.Sprintf("%s has a bare king", us))
	}
	if !p.HasLegalMove() {
		if p.InCheck() {
			if m, _, ok := p.LastMove(); ok && m.Kind() == Drop && v.noDropMate&(1<<m.Promo()) != 0 {
				return Status{Result: Win(us), Reason: ReasonCheckmate,
					Detail: fmt.Sprintf("%s is checkmated by a %c drop, which the rules forbid: %s wins", us, v.Letter(m.Promo()), us)}
			}
			val := e.Checkmate
			if val == None {
				val = Loss
			}
			return valueStatus(val, us, ReasonCheckmate, fmt.Sprintf("%s is checkmated", us))
		}
		val := e.Stalemate
		if val == None {
			val = DrawValue
		}
		return valueStatus(val, us, ReasonStalemate, fmt.Sprintf("%s is stalemated", us))
	}
	if p.deadMaterial() {
		return Status{Result: Draw, Reason: ReasonDead, Detail: "neither side can checkmate"}
	}
	if e.NMoveRule > 0 && p.halfmove >= 2*e.NMoveRule {
		return Status{Result: Draw, Reason: ReasonNMoveRule, Detail: fmt.Sprintf("%d moves without capture or pawn move", e.NMoveRule)}
	}
	if h := v.h.history; h != nil {
		if st, ok := h.HistoryEnd(p); ok {
			return st
		}
	}
	if e.NFold > 0 && p.Repetitions() >= e.NFold {
		return Status{Result: Draw, Reason: ReasonRepetition, Detail: fmt.Sprintf("the same position %d times", e.NFold)}
	}
	if e.MoveCap > 0 && p.Played() >= e.MoveCap {
		return Status{Result: Draw, Reason: ReasonMoveCap, Detail: fmt.Sprintf("the move limit of %d plies", e.MoveCap)}
	}
	return Status{}
}

// valueStatus turns an end-rule value for side c into a status.
func valueStatus(val Value, c Color, r Reason, detail string) Status {
	switch val {
	case Loss:
		return Status{Result: Win(c.Other()), Reason: r, Detail: detail + " and loses"}
	case WinValue:
		return Status{Result: Win(c), Reason: r, Detail: detail + " and wins"}
	}
	return Status{Result: Draw, Reason: r, Detail: detail + ": draw"}
}

// Repetitions returns how many times the current position has occurred,
// counting this one, since the last irreversible move in the history.
func (p *Position) Repetitions() int { return p.occurrences(true) }

// Recurrences is Repetitions with the treasuries left out of the
// comparison: how many times the board, reserves and turn state have
// stood as they stand now since the last irreversible move. Where a
// treasury grows every turn (csipgs's credit) no position repeats, yet a
// cycle of moves is a cycle; a search scores it as a draw so that the
// side ahead does not circle for ever. Without money it equals
// Repetitions.
func (p *Position) Recurrences() int { return p.occurrences(false) }

// occurrences counts the positions of the history equal to this one
// (money compared or not). It looks back to the last irreversible move:
// the positions after it have a halfmove count of 0, and in a turn of
// several decisions several positions in a row do.
func (p *Position) occurrences(money bool) int {
	key := func(h uint64, m [2]int32) uint64 {
		if money {
			return h
		}
		return h ^ moneyKey(0, m[0]) ^ moneyKey(1, m[1])
	}
	want := key(p.Hash(), p.money)
	n := 1
	reset := false
	for i := len(p.hist) - 1; i >= 0; i-- {
		u := &p.hist[i]
		if u.halfmove == 0 {
			reset = true
		} else if reset {
			break
		}
		if key(u.hash, u.money) == want && u.turn == p.turn && u.phase == p.phase && u.counter == p.counter {
			n++
		}
	}
	return n
}

// deadMaterial reports whether the material matches one of the variant's
// dead patterns.
func (p *Position) deadMaterial() bool {
	v := p.v
	if len(v.dead) == 0 && v.deadSameColor == 0 {
		return false
	}
	var sides [2]string
	for c := range 2 {
		var sb strings.Builder
		for t := 1; t < len(v.types); t++ {
			for range p.count[c][t] {
				sb.WriteByte(v.types[t].spec.Letter)
			}
		}
		sides[c] = sortedLetters(sb.String())
	}
	for _, d := range v.dead {
		if (d[0] == sides[0] && d[1] == sides[1]) || (d[0] == sides[1] && d[1] == sides[0]) {
			return true
		}
	}
	if v.deadSameColor != 0 {
		light, dark := 0, 0
		for c := range 2 {
			for _, s := range p.list[c][:p.n[c]] {
				t := p.board[s].Type()
				if v.royalMask&(1<<t) != 0 {
					continue
				}
				if v.deadSameColor&(1<<t) == 0 {
					return false
				}
				if s.Light() {
					light++
				} else {
					dark++
				}
			}
		}
		return light == 0 || dark == 0
	}
	return false
}
