// Package geom describes rectangular boards from 4x4 to 16x16 with optional
// holes: squares, their names, directions between them, and sets of squares.
//
// Every board shares one padded mailbox layout so that move generation can
// step by a fixed offset without bounds checks:
//
//	index = (rank+RankPad)*Stride + file + FilePad
//
// Stride is 32 and the padding (8 files each side, 4 ranks below and above)
// is wider than the longest leap an atom makes (3 squares), so a step from
// any square on the board lands inside the array. Cells outside the board,
// and holes, hold a wall marker in the rules package; a slider stops at a
// wall and a leaper cannot land on one. An offset of (dx, dy) is therefore
// the same number, dy*Stride+dx, on every board.
package geom

import (
	"errors"
	"fmt"
	"strconv"
)

// Layout constants of the padded mailbox. See the package documentation.
const (
	Stride   = 32                   // cells per row of the mailbox
	FilePad  = 8                    // wall columns left of file a
	RankPad  = 4                    // wall rows below rank 1
	Rows     = MaxRanks + 2*RankPad // rows in the mailbox
	Cells    = Rows * Stride        // size of a mailbox array
	MaxFiles = 16                   // files a..p
	MaxRanks = 16                   // ranks 1..16
	MinFiles = 4                    // smallest supported width
	MinRanks = 4                    // smallest supported height
	NoSquare = Square(0)            // a cell that is never on a board
	MaxLeap  = 3                    // longest leap of any atom, in files or ranks
)

// The padding must be wider than the longest leap on every side.
const _ = uint(FilePad-MaxLeap) + uint(RankPad-MaxLeap) + uint(Stride-MaxFiles-2*FilePad)

const fileNames = "abcdefghijklmnop"

// Around holds the offsets of the eight squares next to a square (a
// king's steps), rank by rank from below and file by file from the left.
// A step from a square of the board may land on the padding, never
// outside the mailbox.
var Around = [8]int{
	Offset(-1, -1), Offset(0, -1), Offset(1, -1),
	Offset(-1, 0), Offset(1, 0),
	Offset(-1, 1), Offset(0, 1), Offset(1, 1),
}

// Square is a cell index in the padded mailbox. The zero value, NoSquare, is
// a padding cell and never a square of any board.
type Square uint16

// Sq returns the square at the zero-based file and rank. It does not check
// that the square is on a particular board; see Board.Contains.
func Sq(file, rank int) Square {
	return Square((rank+RankPad)*Stride + file + FilePad)
}

// File returns the zero-based file of s (0 is file a).
func (s Square) File() int { return int(s)%Stride - FilePad }

// Rank returns the zero-based rank of s (0 is rank 1).
func (s Square) Rank() int { return int(s)/Stride - RankPad }

// Offset returns the mailbox offset of a step by dx files and dy ranks.
func Offset(dx, dy int) int { return dy*Stride + dx }

// String returns the algebraic name of s, such as "e4" or "j10", or "-" for
// NoSquare and squares outside every board.
func (s Square) String() string {
	f, r := s.File(), s.Rank()
	if f < 0 || f >= MaxFiles || r < 0 || r >= MaxRanks {
		return "-"
	}
	return string(fileNames[f]) + strconv.Itoa(r+1)
}

// ErrBadSquare reports a square name that is malformed or off the board.
var ErrBadSquare = errors.New("bad square")

// Board is the geometry of one rectangular board: its size and holes.
// Holes are squares no piece may enter; sliders stop before them and
// leapers may jump over them.
type Board struct {
	Files, Ranks int
	Holes        Set
}

// NewBoard returns a board of the given size without holes.
func NewBoard(files, ranks int) (Board, error) {
	if files < MinFiles || files > MaxFiles || ranks < MinRanks || ranks > MaxRanks {
		return Board{}, fmt.Errorf("board %dx%d: size must be from %dx%d to %dx%d",
			files, ranks, MinFiles, MinRanks, MaxFiles, MaxRanks)
	}
	return Board{Files: files, Ranks: ranks}, nil
}

// Contains reports whether s is a square of b that is not a hole.
func (b Board) Contains(s Square) bool {
	return b.OnGrid(s) && !b.Holes.Has(s)
}

// OnGrid reports whether s lies inside the rectangle of b, hole or not.
func (b Board) OnGrid(s Square) bool {
	f, r := s.File(), s.Rank()
	return f >= 0 && f < b.Files && r >= 0 && r < b.Ranks
}

// Squares returns the squares of b that are not holes, rank 1 first and
// file a first within a rank.
func (b Board) Squares() []Square {
	out := make([]Square, 0, b.Files*b.Ranks)
	for r := 0; r < b.Ranks; r++ {
		for f := 0; f < b.Files; f++ {
			if s := Sq(f, r); !b.Holes.Has(s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// ParseSquare reads an algebraic square name ("a1", "p16") on board b. Holes
// are accepted: they are squares of the grid, though no piece stands there.
func (b Board) ParseSquare(name string) (Square, error) {
	s, n, err := b.ScanSquare(name)
	if err != nil {
		return NoSquare, err
	}
	if n != len(name) {
		return NoSquare, fmt.Errorf("%w: %q", ErrBadSquare, name)
	}
	return s, nil
}

// ScanSquare reads a square name at the start of text and returns the square
// and the number of bytes it used. A rank is read greedily (one or two
// digits), but a second digit is taken only if the rank stays on the board,
// so "a1a2" on an 8-rank board reads "a1".
func (b Board) ScanSquare(text string) (Square, int, error) {
	if len(text) < 2 {
		return NoSquare, 0, fmt.Errorf("%w: %q", ErrBadSquare, text)
	}
	f := int(text[0]) - 'a'
	if f < 0 || f >= b.Files {
		return NoSquare, 0, fmt.Errorf("%w: %q: file %q is not on a %d-file board", ErrBadSquare, text, text[0], b.Files)
	}
	if text[1] < '1' || text[1] > '9' {
		return NoSquare, 0, fmt.Errorf("%w: %q: missing rank", ErrBadSquare, text)
	}
	r, n := int(text[1]-'0'), 2
	if len(text) > 2 && text[2] >= '0' && text[2] <= '9' && r*10+int(text[2]-'0') <= b.Ranks {
		r, n = r*10+int(text[2]-'0'), 3
	}
	if r > b.Ranks {
		return NoSquare, 0, fmt.Errorf("%w: %q: rank %d is not on a %d-rank board", ErrBadSquare, text, r, b.Ranks)
	}
	return Sq(f, r-1), n, nil
}

// FileName returns the letter of a zero-based file.
func FileName(f int) byte { return fileNames[f] }

// Mirror returns the square reflected top to bottom on b (a1 <-> a8 on 8x8).
func (b Board) Mirror(s Square) Square { return Sq(s.File(), b.Ranks-1-s.Rank()) }

// Rotate returns the square turned by 180 degrees on b (a1 <-> h8 on 8x8).
func (b Board) Rotate(s Square) Square {
	return Sq(b.Files-1-s.File(), b.Ranks-1-s.Rank())
}

// Light reports whether s is a light square (h1 is light, as in chess).
func (s Square) Light() bool { return (s.File()+s.Rank())%2 == 1 }
