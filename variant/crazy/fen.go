package crazy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/anychess/anychess/rules"
)

// ErrFEN is wrapped by every error ParseFEN returns; it wraps rules.ErrFEN,
// so errors.Is(err, rules.ErrFEN) holds as well.
var ErrFEN = fmt.Errorf("%w: bad Crazy-FEN", rules.ErrFEN)

// fenError returns an error about the Crazy-FEN text (cut to 100 bytes).
func fenError(text, format string, args ...any) error {
	if len(text) > 100 {
		text = text[:100] + "..."
	}
	return fmt.Errorf("%w %q: %s", ErrFEN, text, fmt.Sprintf(format, args...))
}

// FEN writes p in Crazy-FEN (section 2.11): FEN whose board writes a stack
// as its pieces bottom to top in parentheses and a risen Bishop as B* or
// b*, the en-passant field as jumped:pawn, and three more fields: denial
// holder, immune side and denials used. A position without Crazy state (the
// variant's compiled start) is written with the start's state.
func FEN(p *rules.Position) string {
	s := view(p)
	v := p.Variant()
	var sb strings.Builder
	writeBoard(&sb, func(b int) string {
		st := s.cells[b][:s.height[b]]
		if len(st) > 1 {
			return "(" + stackText(v, st) + ")"
		}
		return stackText(v, st)
	})
	sb.WriteByte(' ')
	sb.WriteByte(p.Turn().Letter())
	sb.WriteByte(' ')
	sb.WriteString(castleField(s.v.castle))
	sb.WriteByte(' ')
	if s.v.epJump == none {
		sb.WriteByte('-')
	} else {
		sb.WriteString(sqOf(int(s.v.epJump)).String() + ":" + sqOf(int(s.v.epPawn)).String())
	}
	fmt.Fprintf(&sb, " %d %d ", p.Halfmove(), p.Fullmove())
	sb.WriteString(vFields(&s.v))
	return sb.String()
}

// writeBoard writes the board field of a FEN, rank 8 first: cell returns
// the text of the square of board index b, "" for an empty square.
func writeBoard(sb *strings.Builder, cell func(b int) string) {
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 8 {
			text := cell(r*8 + f)
			if text == "" {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteString(text)
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
}

// stackText writes pieces of v, bottom first, each as PieceText.
func stackText(v *rules.Variant, pieces []rules.Piece) string {
	var sb strings.Builder
	for _, pc := range pieces {
		sb.WriteString(PieceText(v, pc))
	}
	return sb.String()
}

// castleField writes castling rights as KQkq or "-".
func castleField(c uint8) string {
	if c == 0 {
		return "-"
	}
	var sb strings.Builder
	for i, l := range "KQkq" {
		if c&(1<<i) != 0 {
			sb.WriteRune(l)
		}
	}
	return sb.String()
}

// vFields writes the three denial fields: holder, immune side, used.
func vFields(v *vals) string {
	immune := "-"
	if v.immune != none {
		immune = string(rules.Color(v.immune).Letter())
	}
	return string(v.holder.Letter()) + " " + immune + " " + strconv.Itoa(int(v.used))
}

// ParseFEN reads a position in Crazy-FEN (see FEN) for v, a Crazy Chess
// variant. It is v.ParseFEN; the halfmove and fullmove fields may be left
// out as in FEN, and so may the three denial fields (Black holds the
// right, nobody is immune, no denials used). The en-passant field may be
// the plain FIDE square of a forward double step. A record that no pawn
// could use is dropped, as the core does, so equal positions hash equal.
//
// FEN carries no previous move, so a position read from it cannot deny.
func ParseFEN(v *rules.Variant, s string) (*rules.Position, error) {
	if v == nil || v.Name() != Name {
		return nil, fenError(s, "not a Crazy Chess variant")
	}
	return v.ParseFEN(s)
}

// FEN writes Crazy-FEN (FENText), as the package's FEN does.
func (z *crazy) FEN(p *rules.Position) string { return FEN(p) }

// ParseFEN reads Crazy-FEN (FENText).
func (z *crazy) ParseFEN(v *rules.Variant, str string) (*rules.Position, error) {
	if len(str) > 4096 { // as the core bounds FEN
		return nil, fenError(str, "longer than 4096 bytes")
	}
	fields := strings.Fields(str)
	if len(fields) < 2 || len(fields) > 9 || len(fields) == 7 || len(fields) == 8 {
		return nil, fenError(str, "%d fields; want 2 to 6 (board, side, castling, en passant, halfmove, fullmove) or 9 (and holder, immune side, denials)", len(fields))
	}
	for len(fields) < 9 {
		fields = append(fields, [9]string{2: "-", 3: "-", 4: "0", 5: "1", 6: "b", 7: "-", 8: "0"}[len(fields)])
	}
	s := &state{v: defaultVals(), z: z}
	if err := z.parseBoard(v, s, fields[0]); err != nil {
		return nil, fenError(str, "board: %v", err)
	}
	sideIdx, ok := colorField(fields[1], false)
	if !ok {
		return nil, fenError(str, "side %q; want w or b", fields[1])
	}
	side := rules.Color(sideIdx)
	castle, err := z.parseCastling(s, fields[2])
	if err != nil {
		return nil, fenError(str, "castling: %v", err)
	}
	s.v.castle = castle
	half, err1 := strconv.Atoi(fields[4])
	full, err2 := strconv.Atoi(fields[5])
	if err1 != nil || half < 0 || half > 1_000_000 {
		return nil, fenError(str, "halfmove %q is not a move count", fields[4])
	}
	if err2 != nil || full < 0 || full > 1_000_000 {
		return nil, fenError(str, "fullmove %q is not a move number", fields[5])
	}
	if err := parseDenial(&s.v, fields[6:9]); err != nil {
		return nil, fenError(str, "%v", err)
	}

	// The core reads the bases; the state holds everything.
	var plain strings.Builder
	writeBoard(&plain, func(b int) string {
		if pc := s.cells[b][0]; pc != rules.Empty {
			return string(v.PieceLetter(pc))
		}
		return ""
	})
	fmt.Fprintf(&plain, " %c - - %d %d", side.Letter(), half, full)
	p, err := v.ParsePlainFEN(plain.String())
	if err != nil {
		return nil, fmt.Errorf("%w %q: %w", ErrFEN, str, err)
	}
	for b := range 64 {
		if pc := s.cells[b][0]; pc.Attr() != 0 {
			p.Remove(sqOf(b))
			p.Put(sqOf(b), pc)
		}
		for i := 1; i < int(s.height[b]); i++ {
			s.phash ^= pkey(b, i, s.cells[b][i])
		}
	}
	s.reindex()
	p.SetState(s)
	if err := z.parseEP(s, fields[3], side); err != nil {
		return nil, fenError(str, "en passant: %v", err)
	}
	return p, nil
}

// parseBoard reads the board field into s.
func (z *crazy) parseBoard(v *rules.Variant, s *state, field string) error {
	rows := strings.Split(field, "/")
	if len(rows) != 8 {
		return fmt.Errorf("%d ranks; want 8", len(rows))
	}
	total := 0
	kings := [2]int{}
	for ri, row := range rows {
		r := 7 - ri
		f := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				f += int(c - '0')
				if f > 8 {
					return fmt.Errorf("rank %d has more than 8 files", r+1)
				}
				continue
			}
			if f >= 8 {
				return fmt.Errorf("rank %d has more than 8 files", r+1)
			}
			b := r*8 + f
			// The text of the square: a stack's pieces, or one piece.
			var text string
			if c == '(' {
				end := strings.IndexByte(row[j:], ')')
				if end < 0 {
					return fmt.Errorf("rank %d: a stack is not closed by )", r+1)
				}
				text = row[j+1 : j+end]
				j += end
				if text == "" {
					return fmt.Errorf("rank %d: an empty stack ()", r+1)
				}
			} else {
				text = row[j : j+1]
				if j+1 < len(row) && row[j+1] == '*' {
					text = row[j : j+2]
					j++
				}
			}
			var stack [MaxPieces]rules.Piece
			n := 0
			for k := 0; k < len(text); k++ {
				pc, risen, err := z.pieceAt(v, text, k)
				if err != nil {
					return fmt.Errorf("rank %d: %v", r+1, err)
				}
				if risen {
					k++
				}
				if n == MaxPieces {
					return fmt.Errorf("rank %d: a stack of more than %d pieces", r+1, MaxPieces)
				}
				stack[n] = pc
				n++
			}
			if n > 1 && stack[0].Type() != z.rook {
				return fmt.Errorf("the stack on %v has a base that is not a Rook (CC-2)", sqOf(b))
			}
			total += n
			if total > MaxPieces {
				return fmt.Errorf("more than %d pieces", MaxPieces)
			}
			for i, pc := range stack[:n] {
				s.cells[b][i] = pc
				if pc.Type() == z.king {
					kings[pc.Color()]++
				}
			}
			s.height[b] = uint8(n)
			if n == 1 && stack[0].Type() == z.pawn {
				_, first, _, last := pawnRows(stack[0].Color())
				if r == first {
					return fmt.Errorf("a lone pawn on its own first row (%v) would have captured itself (CC-39)", sqOf(b))
				}
				if r == last && z.o.OffTurnPromotion == AutoQueen {
					return fmt.Errorf("a lone pawn on its last row (%v) would have promoted (CC-41)", sqOf(b))
				}
			}
			f++
		}
		if f != 8 {
			return fmt.Errorf("rank %d has %d files; want 8", r+1, f)
		}
	}
	for c, n := range kings {
		if n != 1 {
			return fmt.Errorf("%s has %d kings; want 1", rules.Color(c), n)
		}
	}
	return nil
}

// pieceAt reads the piece letter at text[k], with a risen mark '*' after it
// for a Bishop.
func (z *crazy) pieceAt(v *rules.Variant, text string, k int) (rules.Piece, bool, error) {
	c := text[k]
	col := rules.White
	u := c
	if c >= 'a' && c <= 'z' {
		col, u = rules.Black, c-'a'+'A'
	}
	t := v.TypeOf(u)
	if t == 0 || c >= 128 {
		return 0, false, fmt.Errorf("unknown piece %q", c)
	}
	pc := rules.MakePiece(col, t)
	if k+1 < len(text) && text[k+1] == '*' {
		if t != z.bishop {
			return 0, false, fmt.Errorf("%c*: only a Bishop can be risen", c)
		}
		return pc.WithAttr(attrRisen), true, nil
	}
	return pc, false, nil
}

// parseCastling reads KQkq (any subset, no repeats) or "-"; each right
// needs its king alone on its home square and its rook as the base in its
// corner.
func (z *crazy) parseCastling(s *state, field string) (uint8, error) {
	if field == "-" {
		return 0, nil
	}
	var c uint8
	for _, l := range []byte(field) {
		i := strings.IndexByte("KQkq", l)
		if i < 0 {
			return 0, fmt.Errorf("unexpected %q in %q", l, field)
		}
		col, long := rules.Color(i/2), i%2 == 1
		bit := castleBit(col, long)
		if c&bit != 0 {
			return 0, fmt.Errorf("%q repeats a right", l)
		}
		home, corner, _, _, _, _ := castleSquares(col, long)
		if s.height[home] != 1 || s.cells[home][0] != rules.MakePiece(col, z.king) {
			return 0, fmt.Errorf("%q: %s's king is not alone on %v", l, col, sqOf(home))
		}
		if s.height[corner] == 0 || s.cells[corner][0] != rules.MakePiece(col, z.rook) {
			return 0, fmt.Errorf("%q: no %s rook on %v", l, col, sqOf(corner))
		}
		c |= bit
	}
	return c, nil
}

// colorField reads w or b, and with dash also "-" (as none).
func colorField(f string, dash bool) (int8, bool) {
	switch {
	case f == "w", f == "b":
		return int8(strings.IndexByte("wb", f[0])), true
	case f == "-" && dash:
		return none, true
	}
	return none, false
}

// parseDenial reads holder, immune side and denials used.
func parseDenial(v *vals, f []string) error {
	h, ok := colorField(f[0], false)
	if !ok {
		return fmt.Errorf("denial holder %q; want w or b", f[0])
	}
	v.holder = rules.Color(h)
	if v.immune, ok = colorField(f[1], true); !ok {
		return fmt.Errorf("immune side %q; want w, b or -", f[1])
	}
	if v.immune != none {
		if rules.Color(v.immune) != v.holder.Other() {
			return fmt.Errorf("immune side %s: a denier is immune and the right is then its opponent's, so the holder must be %c", f[1], rules.Color(v.immune).Other().Letter())
		}
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("denials used %q; want 0..65535", f[2])
	}
	v.used = uint16(n)
	return nil
}

// parseEP reads the en-passant record "-", "jumped:pawn" or the FIDE
// "jumped" of a forward double step, for the side to move (side) against
// its opponent's pawn, and keeps it if usable.
func (z *crazy) parseEP(s *state, field string, side rules.Color) error {
	if field == "-" {
		return nil
	}
	jText, pText, pair := strings.Cut(field, ":")
	jsq, err := board.ParseSquare(jText)
	if err != nil {
		return err
	}
	j := idxOf(jsq)
	mover := side.Other()
	fwd, _, start, _ := pawnRows(mover)
	pw := step(j, 0, fwd)
	if pair {
		psq, err := board.ParseSquare(pText)
		if err != nil {
			return err
		}
		pw = idxOf(psq)
	}
	if pw == none {
		return fmt.Errorf("%s: no pawn square", field)
	}
	origin := 2*j - pw
	df, dr := pw&7-j&7, pw>>3-j>>3
	forward := df == 0 && dr == fwd && origin>>3 == start
	sideways := dr == 0 && abs(df) == 1 && pw>>3 == start && origin>>3 == start
	if origin < 0 || origin > 63 || !forward && !sideways {
		return fmt.Errorf("%s is not a double step of a %s pawn", field, mover)
	}
	// The origin may hold the piece a disguise swapped there (CC-28).
	if s.height[j] != 0 || s.height[pw] != 1 || s.cells[pw][0] != rules.MakePiece(mover, z.pawn) {
		return fmt.Errorf("%s: no %s pawn can have just stepped past %v", field, mover, jsq)
	}
	e := engine{z: z, s: s}
	if e.epUsable(j, pw, side) {
		s.v.epJump, s.v.epPawn = int8(j), int8(pw)
	}
	return nil
}
