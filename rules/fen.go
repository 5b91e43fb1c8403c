package rules

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/anychess/anychess/geom"
)

// ErrFEN is wrapped by every error ParseFEN returns.
var ErrFEN = errors.New("bad FEN")

// FENError says which field of a FEN is wrong and why.
type FENError struct {
	FEN   string
	Field string // "board", "side", "castling", "en passant", "halfmove", "fullmove", "position"
	Msg   string
}

func (e *FENError) Error() string {
	return fmt.Sprintf("bad FEN %q: %s: %s", e.FEN, e.Field, e.Msg)
}

// Unwrap makes errors.Is(err, ErrFEN) true.
func (e *FENError) Unwrap() error { return ErrFEN }

// ParseFEN reads a position in Forsyth-Edwards Notation, extended for any
// board: empty counts may have two digits ("10"), holes are written "*",
// a variant with drops may follow the board with its reserves in
// brackets ("[Nn]"), and where captures go to hand a promoted piece has a
// "~" after its letter ("Q~"), as in Fairy-Stockfish. The halfmove and fullmove fields may be left out.
//
// A castling field in a variant without castling is read and ignored. An
// en-passant square is checked against the board and kept only if the side
// to move has a legal en-passant capture, so equal positions compare equal.
// Positions that cannot arise (a missing king, a pawn on a rank it can never
// stand on) are errors. A position in which the side not to move is in check
// is accepted, as Fairy-Stockfish and python-chess accept it and as the
// Great Shatranj test vectors (GS-7) require: the king may then be captured,
// which ends the game.
//
// A variant may replace the format (FENText); ParsePlainFEN always
// reads the core's.
func (v *Variant) ParseFEN(fen string) (*Position, error) {
	if h := v.h.fen; h != nil {
		return h.ParseFEN(v, fen)
	}
	return v.parseFEN(fen)
}

// ParsePlainFEN reads the core's FEN, ignoring a variant's own format.
func (v *Variant) ParsePlainFEN(fen string) (*Position, error) { return v.parseFEN(fen) }

func (v *Variant) parseFEN(fen string) (*Position, error) {
	fail := func(field, format string, args ...any) (*Position, error) {
		return nil, &FENError{FEN: fen, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if len(fen) > 4096 {
		return fail("position", "longer than 4096 bytes")
	}
	fields := strings.Fields(fen)
	if len(fields) < 2 {
		return fail("position", "want at least board and side to move")
	}
	if len(fields) > 6 {
		return fail("position", "%d fields; at most 6 (board, side, castling, en passant, halfmove, fullmove)", len(fields))
	}
	p := v.newPosition()
	boardField := fields[0]
	if i := strings.IndexByte(boardField, '['); i >= 0 {
		if !v.spec.Drops {
			return fail("board", "reserves in brackets, but %s has no drops", v.spec.Name)
		}
		if !strings.HasSuffix(boardField, "]") {
			return fail("board", "reserve list %q is not closed by ]", boardField[i:])
		}
		for _, l := range []byte(boardField[i+1 : len(boardField)-1]) {
			t := v.TypeOf(l)
			if t == 0 || l >= 128 {
				return fail("board", "unknown piece %q in reserve", l)
			}
			c := White
			if l >= 'a' {
				c = Black
			}
			if p.pocket[c][t] == 255 {
				return fail("board", "too many pieces in reserve")
			}
			p.pocket[c][t]++
		}
		boardField = boardField[:i]
	}
	rows := strings.Split(boardField, "/")
	if len(rows) != v.board.Ranks {
		return fail("board", "%d ranks; %s has %d", len(rows), v.spec.Name, v.board.Ranks)
	}
	for i, row := range rows {
		r := v.board.Ranks - 1 - i
		f := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			switch {
			case c >= '0' && c <= '9':
				if c == '0' {
					return fail("board", "rank %d: an empty count starts with 0", r+1)
				}
				n := int(c - '0')
				if j+1 < len(row) && row[j+1] >= '0' && row[j+1] <= '9' {
					n = n*10 + int(row[j+1]-'0')
					j++
				}
				for k := 0; k < n; k++ {
					if f+k < v.board.Files && v.board.Holes.Has(geom.Sq(f+k, r)) {
						return fail("board", "%v is a hole and must be written *", geom.Sq(f+k, r))
					}
				}
				f += n
			case c == '*':
				if f < v.board.Files && !v.board.Holes.Has(geom.Sq(f, r)) {
					return fail("board", "%v is not a hole", geom.Sq(f, r))
				}
				f++
			default:
				promotedForm := false
				if c == '+' && j+1 < len(row) {
					promotedForm = true
					j++
					c = row[j]
				}
				t := v.TypeOf(c)
				if t == 0 {
					return fail("board", "unknown piece %q on rank %d", c, r+1)
				}
				if promotedForm {
					u := Type(0)
					for k := 1; k < len(v.types); k++ {
						if v.demote[k] == t {
							u = Type(k)
						}
					}
					if u == 0 {
						return fail("board", "+%c: %c has no promoted form in %s", c, c, v.spec.Name)
					}
					t = u
				}
				if f >= v.board.Files {
					return fail("board", "rank %d has more than %d files", r+1, v.board.Files)
				}
				s := geom.Sq(f, r)
				if v.board.Holes.Has(s) {
					return fail("board", "a piece on the hole %v", s)
				}
				col := White
				if c >= 'a' {
					col = Black
				}
				if p.n[col] >= MaxPieces {
					return fail("board", "%s has more than %d pieces", col, MaxPieces)
				}
				pc := MakePiece(col, t)
				if j+1 < len(row) && row[j+1] == '~' {
					if !v.toHand {
						return fail("board", "%v: a promoted piece (~), but captures do not go to hand in %s", s, v.spec.Name)
					}
					if !slices.Contains(v.promoTypes, t) {
						return fail("board", "%v: %c~ is not a type a pawn promotes to", s, c)
					}
					pc |= promoted
					j++
				}
				p.put(s, pc)
				f++
			}
			if f > v.board.Files {
				return fail("board", "rank %d has more than %d files", r+1, v.board.Files)
			}
		}
		if f != v.board.Files {
			return fail("board", "rank %d has %d files; want %d", r+1, f, v.board.Files)
		}
	}

	switch fields[1] {
	case "w":
		p.turn = White
	case "b":
		p.turn = Black
	default:
		return fail("side", "%q; want w or b", fields[1])
	}

	if len(fields) > 2 {
		if err := p.parseCastling(fields[2]); err != nil {
			return fail("castling", "%v", err)
		}
	}

	fullmove := 1
	if len(fields) > 4 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 0 || n > 1_000_000 {
			return fail("halfmove", "%q is not a move count", fields[4])
		}
		p.halfmove = n
	}
	if len(fields) > 5 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 0 || n > 1_000_000 {
			return fail("fullmove", "%q is not a move number", fields[5])
		}
		fullmove = max(n, 1)
	}
	p.ply = 2*(fullmove-1) + int(p.turn)
	p.startPly = p.ply

	if msg := p.validate(); msg != "" {
		return fail("position", "%s", msg)
	}
	p.computeHash()

	if len(fields) > 3 && fields[3] != "-" {
		s, err := v.board.ParseSquare(fields[3])
		if err != nil {
			return fail("en passant", "%v", err)
		}
		if msg := p.checkEnPassant(s); msg != "" {
			return fail("en passant", "%s", msg)
		}
	}
	return p, nil
}

// castlingLetter reports whether c may stand in a castling field: K, Q,
// k, q or a file letter of the board (Shredder-FEN).
func (v *Variant) castlingLetter(c byte) bool {
	files := byte(v.board.Files)
	return c == 'K' || c == 'Q' || c == 'k' || c == 'q' ||
		(c >= 'A' && c < 'A'+files) || (c >= 'a' && c < 'a'+files)
}

// parseCastling reads the castling field: KQkq, file letters (Shredder-FEN)
// or "-". Without castling in the variant any well-formed field is ignored.
func (p *Position) parseCastling(field string) error {
	v := p.v
	if field == "-" {
		return nil
	}
	for i := 0; i < len(field); i++ {
		if c := field[i]; !v.castlingLetter(c) {
			return fmt.Errorf("unexpected %q in %q", c, field)
		}
	}
	if !v.castling {
		return nil
	}
	for i := 0; i < len(field); i++ {
		c := field[i]
		col := White
		if c >= 'a' {
			col = Black
		}
		rank := 0
		if col == Black {
			rank = v.board.Ranks - 1
		}
		k := p.royalSquare(col)
		if k == geom.NoSquare || k.Rank() != rank || p.royalCount(col) != 1 {
			return fmt.Errorf("%q: %s's king is not on its first rank", c, col)
		}
		rook := MakePiece(col, v.castleRook)
		rookAt := geom.NoSquare
		var side int
		switch c {
		case 'K', 'k':
			for f := v.board.Files - 1; f > k.File(); f-- {
				if p.board[geom.Sq(f, rank)] == rook {
					rookAt = geom.Sq(f, rank)
					break
				}
			}
			side = 0
		case 'Q', 'q':
			for f := 0; f < k.File(); f++ {
				if p.board[geom.Sq(f, rank)] == rook {
					rookAt = geom.Sq(f, rank)
					break
				}
			}
			side = 1
		default:
			f := int(upper(c) - 'A')
			if f == k.File() {
				return fmt.Errorf("%q: the king stands on that file", c)
			}
			if s := geom.Sq(f, rank); p.board[s] == rook {
				rookAt = s
			}
			if f < k.File() {
				side = 1
			}
		}
		if rookAt == geom.NoSquare {
			return fmt.Errorf("%q: no %s castling piece on that side", c, col)
		}
		bit := uint8(1) << (2*int(col) + side)
		if p.castle&bit != 0 {
			return fmt.Errorf("%q repeats a right", c)
		}
		p.castle |= bit
		p.castleRook[2*int(col)+side] = rookAt
		p.castleMask[rookAt] |= bit
		p.castleMask[k] |= bit
	}
	return nil
}

// Validate reports why a position that ParseFEN reads could not arise in a
// game: the side not to move is in check. Servers and position editors use
// it to refuse such set-ups; the rules themselves play them (the king can
// be taken, which ends the game).
func (p *Position) Validate() error {
	v := p.v
	if v.royalMask != 0 && v.h.legal == nil && p.royalAttacked(p.turn.Other()) {
		return &FENError{FEN: p.FEN(), Field: "position", Msg: fmt.Sprintf("the side not to move (%s) is in check", p.turn.Other())}
	}
	return nil
}

// validate reports why a freshly read position cannot be played, or "".
func (p *Position) validate() string {
	v := p.v
	if v.royalMask != 0 && v.h.end == nil {
		for c := White; c <= Black; c++ {
			n := p.royalCount(c)
			if n == 0 {
				return fmt.Sprintf("%s has no royal piece", c)
			}
			if v.start != nil && n > v.start.royalCount(c) {
				return fmt.Sprintf("%s has %d royal pieces; %s allows %d", c, n, v.spec.Name, v.start.royalCount(c))
			}
		}
	}
	if v.pawn != 0 {
		backward := false
		for _, l := range v.types[v.pawn].movement.Legs {
			if l.DY < 0 {
				backward = true
			}
		}
		for c := White; c <= Black; c++ {
			first := 0
			if c == Black {
				first = v.board.Ranks - 1
			}
			for _, s := range p.Pieces(c) {
				if p.board[s].Type() != v.pawn {
					continue
				}
				if v.mustPromote[c].Has(s) {
					return fmt.Sprintf("a %s pawn on %v should have promoted", c, s)
				}
				if !backward && !v.spec.Drops && s.Rank() == first {
					return fmt.Sprintf("a %s pawn on its first rank (%v)", c, s)
				}
			}
		}
	}
	return ""
}

// checkEnPassant validates an en-passant field s and keeps it if the side
// to move can capture there legally.
func (p *Position) checkEnPassant(s geom.Square) string {
	v := p.v
	if !v.enPassant {
		return fmt.Sprintf("%s has no en passant", v.spec.Name)
	}
	them := p.turn.Other()
	fwd := geom.Offset(0, 1)
	if them == Black {
		fwd = -fwd
	}
	victim := geom.Square(int(s) + fwd)
	origin := geom.Square(int(s) - fwd)
	if !v.board.Contains(s) || !v.board.Contains(victim) || !v.board.Contains(origin) ||
		p.board[s] != Empty || p.board[origin] != Empty || p.board[victim] != MakePiece(them, v.pawn) {
		return fmt.Sprintf("%v: no %s pawn can have just stepped past it", s, them)
	}
	p.setEnPassant(s, victim, p.turn)
	return ""
}

// computeHash sets the hash from scratch.
func (p *Position) computeHash() {
	z := &p.v.z
	var h uint64
	for _, s := range p.v.board.Squares() {
		if pc := p.board[s]; pc.IsPiece() {
			h ^= z.pieceKey(pc, s)
		}
	}
	if p.turn == Black {
		h ^= z.side
	}
	h ^= z.castle[p.castle]
	if p.ep != geom.NoSquare {
		h ^= z.ep[p.ep]
	}
	h ^= p.extraKey()
	p.hash = h
}

// extraKey is the part of the hash from reserves, money and turn state.
func (p *Position) extraKey() uint64 {
	var h uint64
	if p.phase != 0 || p.counter != 0 {
		h ^= turnStateKey(p.phase, p.counter)
	}
	for c := range 2 {
		h ^= moneyKey(c, p.money[c])
		for t, n := range p.pocket[c] {
			h ^= pocketKey(c, t, n)
		}
	}
	return h
}

func turnStateKey(phase, counter uint8) uint64 {
	if phase == 0 && counter == 0 {
		return 0
	}
	return Mix64(uint64(phase)<<8 | uint64(counter) | 1<<62)
}

func moneyKey(c int, m int32) uint64 {
	if m == 0 {
		return 0
	}
	return Mix64(uint64(uint32(m)) | uint64(c+1)<<40)
}

func pocketKey(c, t int, n uint8) uint64 {
	if n == 0 {
		return 0
	}
	return Mix64(uint64(n) | uint64(t)<<8 | uint64(c+1)<<16 | 1<<50)
}

// FEN returns the position in FEN (see ParseFEN for the extensions), or in
// the variant's own format if it has one (FENText).
func (p *Position) FEN() string {
	if h := p.v.h.fen; h != nil {
		return h.FEN(p)
	}
	return p.PlainFEN()
}

// PlainFEN returns the position in the core's FEN, without a variant's
// additions (Vazir's ranks): what ordinary tools read.
func (p *Position) PlainFEN() string {
	v := p.v
	var sb strings.Builder
	for r := v.board.Ranks - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < v.board.Files; f++ {
			s := geom.Sq(f, r)
			pc := p.board[s]
			if pc == Empty {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			if pc == Wall {
				sb.WriteByte('*')
			} else if u := v.demote[pc.Type()]; u != 0 {
				sb.WriteByte('+')
				sb.WriteByte(v.PieceLetter(MakePiece(pc.Color(), u)))
			} else {
				sb.WriteByte(v.PieceLetter(pc))
				if pc&promoted != 0 {
					sb.WriteByte('~')
				}
			}
		}
		if empty > 0 {
			sb.WriteString(strconv.Itoa(empty))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	if v.spec.Drops {
		sb.WriteByte('[')
		for c := White; c <= Black; c++ {
			for t := 1; t < len(v.types); t++ {
				for range p.pocket[c][t] {
					sb.WriteByte(v.PieceLetter(MakePiece(c, Type(t))))
				}
			}
		}
		sb.WriteByte(']')
	}
	sb.WriteByte(' ')
	sb.WriteByte(p.turn.Letter())
	sb.WriteByte(' ')
	sb.WriteString(p.castlingField())
	sb.WriteByte(' ')
	if p.ep == geom.NoSquare {
		sb.WriteByte('-')
	} else {
		sb.WriteString(p.ep.String())
	}
	fmt.Fprintf(&sb, " %d %d", p.halfmove, p.Fullmove())
	return sb.String()
}

// castlingField writes KQkq, or a file letter for a rook that is not the
// outermost one on its side (Shredder-FEN).
func (p *Position) castlingField() string {
	if p.castle == 0 {
		return "-"
	}
	var sb strings.Builder
	for i := range 4 {
		if p.castle&(1<<i) == 0 {
			continue
		}
		col := Color(i / 2)
		rs := p.castleRook[i]
		outer := true
		rook := MakePiece(col, p.v.castleRook)
		if i%2 == 0 {
			for f := rs.File() + 1; f < p.v.board.Files; f++ {
				if p.board[geom.Sq(f, rs.Rank())] == rook {
					outer = false
				}
			}
		} else {
			for f := 0; f < rs.File(); f++ {
				if p.board[geom.Sq(f, rs.Rank())] == rook {
					outer = false
				}
			}
		}
		var l byte
		switch {
		case outer && i%2 == 0:
			l = 'K'
		case outer:
			l = 'Q'
		default:
			l = geom.FileName(rs.File()) - 'a' + 'A'
		}
		if col == Black {
			l += 'a' - 'A'
		}
		sb.WriteByte(l)
	}
	return sb.String()
}

// String returns the FEN of the position.
func (p *Position) String() string { return p.FEN() }

// ParseFENLenient reads a FEN as ParseFEN does, except that castling
// rights the board cannot support (no king on its first rank, no rook on
// that side) are dropped instead of refusing the position, as Stockfish
// and python-chess drop them. It returns the position and the rights it
// dropped ("" if none). Engines' protocols read FENs this way; where a
// person types a FEN, ParseFEN stays strict.
func (v *Variant) ParseFENLenient(fen string) (*Position, string, error) {
	p, err := v.ParseFEN(fen)
	if err == nil {
		return p, "", nil
	}
	fields := strings.Fields(fen)
	if len(fields) < 3 || fields[2] == "-" {
		return nil, "", err
	}
	for _, c := range []byte(fields[2]) {
		if !v.castlingLetter(c) {
			return nil, "", err // not a right at all: the field is wrong
		}
	}
	// Keep each right that the position supports on its own; the variant's
	// own reader (with its hooks) is the judge.
	var kept, dropped strings.Builder
	with := func(field string) string {
		f := slices.Clone(fields)
		f[2] = field
		return strings.Join(f, " ")
	}
	for _, c := range fields[2] {
		if _, e := v.ParseFEN(with(string(c))); e == nil {
			kept.WriteRune(c)
		} else {
			dropped.WriteRune(c)
		}
	}
	if dropped.Len() == 0 {
		return nil, "", err
	}
	field := kept.String()
	if field == "" {
		field = "-"
	}
	p, e := v.ParseFEN(with(field))
	if e != nil {
		return nil, "", err
	}
	return p, dropped.String(), nil
}
