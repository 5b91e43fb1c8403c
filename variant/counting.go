package variant

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/anychess/anychess/rules"
)

// makrukCounting is makruk's counting rule (end.counting = "makruk"), as
// Fairy-Stockfish implements it (its MAKRUK_COUNTING): once no pawn is
// left, the side to move that has a count starts counting, and the game is
// drawn when the count passes its limit.
//
//   - Board's honour: a side with more than its king counts 64 moves.
//   - Pieces' honour: a bare king counts against the opponent's pieces:
//     8 moves against two rooks, 16 against one, 22 against two khons
//     (S), 32 against two knights, 44 against one khon, else 64; the count
//     starts at the number of pieces on the board (so the moves left are
//     the limit less the pieces). It starts again when the king is bared
//     by a capture or a promotion.
//   - A side has no count while pawns are on the board or while the
//     opponent has its king alone.
//
// Limit and count are kept in plies, as Fairy-Stockfish's FEN writes them:
// while a count runs, the en-passant field holds the limit and the
// halfmove field the count ("8/8/4k3/8/3K4/8/3R4/8 w - 32 5 30").
type makrukCounting struct{}

// countState is the count of a makruk game: limit and ply in plies (limit
// 0: no count runs), with the earlier values for Unmake.
type countState struct {
	limit, ply int32
	undo       []int64
}

// Clone implements rules.State.
func (s *countState) Clone() rules.State {
	c := *s
	c.undo = append([]int64(nil), s.undo...)
	return &c
}

// Hash implements rules.State: whether a count runs and its limit, not
// the count itself, so that positions still repeat while one runs.
func (s *countState) Hash() uint64 {
	if s.limit == 0 {
		return 0
	}
	return rules.Mix64(uint64(s.limit) | 1<<40)
}

// String implements rules.State: the limit and the count, or "".
func (s *countState) String() string {
	if s.limit == 0 {
		return ""
	}
	return fmt.Sprintf("%d %d", s.limit, s.ply)
}

// countOf returns p's count, attaching an empty one (no count runs) if it
// has none: a position read from the core's FEN (the start) has no count.
func countOf(p *rules.Position) *countState {
	if s, ok := p.State().(*countState); ok {
		return s
	}
	s := &countState{}
	p.SetState(s)
	return s
}

// countLimit is the limit of c's count in moves, or 0 if c has none now.
func countLimit(p *rules.Position, c rules.Color) int32 {
	v := p.Variant()
	o := c.Other()
	if pawns(p) > 0 || len(p.Pieces(o)) == 1 {
		return 0
	}
	if len(p.Pieces(c)) > 1 {
		return 64
	}
	count := func(letter byte) int {
		t := v.TypeOf(letter)
		if t == 0 {
			return 0
		}
		return p.Count(o, t)
	}
	switch {
	case count('R') > 1:
		return 8
	case count('R') == 1:
		return 16
	case count('S') > 1:
		return 22
	case count('N') > 1:
		return 32
	case count('S') == 1:
		return 44
	}
	return 64
}

// pawns counts the pawns of both sides.
func pawns(p *rules.Position) int {
	t := p.Variant().Pawn()
	if t == 0 {
		return 0
	}
	return p.Count(rules.White, t) + p.Count(rules.Black, t)
}

// AfterMake implements rules.AfterMover: it advances the count and starts
// one where the rule says.
func (makrukCounting) AfterMake(p *rules.Position, m rules.Move, outcome int) {
	s := countOf(p)
	s.undo = append(s.undo, int64(s.limit)<<32|int64(uint32(s.ply)))
	if s.limit != 0 {
		s.ply++
	}
	stm := p.Turn()
	mover := stm.Other()
	captured := p.LastCaptured()
	total := int32(len(p.Pieces(rules.White)) + len(p.Pieces(rules.Black)))
	if captured.IsPiece() && captured.Type() == p.Variant().Pawn() && len(p.Pieces(mover)) == 1 && pawns(p) == 0 {
		if n := countLimit(p, mover); n != 0 {
			s.limit, s.ply = 2*n, 2*total-1
		}
	}
	if s.limit == 0 || (captured.IsPiece() || m.Kind() == rules.Promotion) && len(p.Pieces(stm)) == 1 {
		if n := countLimit(p, stm); n != 0 {
			s.limit, s.ply = 2*n, 0
			if len(p.Pieces(stm)) == 1 {
				s.ply = 2 * total
			}
		}
	}
}

// AfterUnmake implements rules.AfterMover.
func (makrukCounting) AfterUnmake(p *rules.Position, m rules.Move, outcome int) {
	s := countOf(p)
	if n := len(s.undo); n > 0 {
		u := s.undo[n-1]
		s.undo = s.undo[:n-1]
		s.limit, s.ply = int32(u>>32), int32(uint32(u))
	}
}

// HistoryEnd implements rules.HistoryEnder: the game is drawn when the
// count passes its limit.
func (makrukCounting) HistoryEnd(p *rules.Position) (rules.Status, bool) {
	s, ok := p.State().(*countState)
	if !ok || s.limit == 0 || s.ply <= s.limit {
		return rules.Status{}, false
	}
	return rules.Status{Result: rules.Draw, Reason: rules.ReasonVariant,
		Detail: fmt.Sprintf("the count of %d moves is over: draw", s.limit/2)}, true
}

// FEN implements rules.FENText: the core's FEN, with the limit and the
// count in the en-passant and halfmove fields while a count runs.
func (makrukCounting) FEN(p *rules.Position) string {
	fen := p.PlainFEN()
	s, ok := p.State().(*countState)
	if !ok || s.limit == 0 {
		return fen
	}
	f := strings.Fields(fen)
	if len(f) != 6 {
		return fen
	}
	f[3] = strconv.Itoa(int(s.limit))
	f[4] = strconv.Itoa(int(s.ply))
	return strings.Join(f, " ")
}

// ParseFEN implements rules.FENText: a number in the en-passant field is
// the limit of a running count, and then the halfmove field is the count.
func (makrukCounting) ParseFEN(v *rules.Variant, fen string) (*rules.Position, error) {
	f := strings.Fields(fen)
	var limit, ply int
	if len(f) > 3 && f[3] != "" && f[3][0] >= '0' && f[3][0] <= '9' {
		n, err := strconv.Atoi(f[3])
		if err != nil || n < 0 || n > 1000 {
			return nil, &rules.FENError{FEN: fen, Field: "counting", Msg: fmt.Sprintf("%q is not a counting limit", f[3])}
		}
		limit = n
		f[3] = "-"
		if len(f) > 4 {
			k, err := strconv.Atoi(f[4])
			if err != nil || k < 0 || k > 1000 {
				return nil, &rules.FENError{FEN: fen, Field: "counting", Msg: fmt.Sprintf("%q is not a count", f[4])}
			}
			ply = k
			f[4] = "0"
		}
	}
	p, err := v.ParsePlainFEN(strings.Join(f, " "))
	if err != nil {
		return nil, err
	}
	p.SetState(&countState{limit: int32(limit), ply: int32(ply)})
	return p, nil
}
