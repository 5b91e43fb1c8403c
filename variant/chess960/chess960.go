// Package chess960 is Chess960 (Fischer Random Chess): chess whose start
// position is drawn from 960, the back rank shuffled with the bishops on
// squares of both colours and the king between the rooks, Black's mirroring
// White's. Castling follows the Chess960 rules, which the rules core
// implements for any start: king and rook end on the files they reach in
// chess (g and f, or c and d), every square either passes must be empty but
// for the two, and the king may not be in check, pass or end on an attacked
// square. Moves are written king-takes-rook for castling (b1h1), as UCI
// interfaces expect in Chess960.
//
// The start positions are numbered 0..959 as Reinhard Scharnagl numbered
// them (StartFEN); number 518 is the chess start. A game draws its number
// with the game's roller (one roll of a 960-sided die), so a game's seed
// decides it.
package chess960

import (
	"fmt"
	"strings"

	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// Name is the variant's registry name; Title is how PGN names it in the
// Variant tag ("Chess960").
const (
	Name  = "chess960"
	Title = "Chess960"
)

// Count is the number of start positions.
const Count = 960

// Chess is the number of the chess start position.
const Chess = 518

// knights lists, for the fifth step of the numbering, which two of the five
// squares left after the bishops and the queen take the knights.
var knights = [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}

// BackRank returns White's back rank of start position n, from the a-file
// ("RNBQKBNR" for 518): n mod 4 places the light-squared bishop on b, d, f
// or h; the next base-4 digit the dark-squared bishop on a, c, e or g; the
// next base-6 digit the queen on one of the six squares left; the rest
// (0..9) the two knights on the five left; rook, king and rook fill the
// last three in that order.
func BackRank(n int) (string, error) {
	if n < 0 || n >= Count {
		return "", fmt.Errorf("chess960: start position %d is not from 0 to %d", n, Count-1)
	}
	var rank [8]byte
	rank[2*(n%4)+1] = 'B'
	n /= 4
	rank[2*(n%4)] = 'B'
	n /= 4
	place := func(k int, piece byte) {
		for f := range rank {
			if rank[f] == 0 {
				if k == 0 {
					rank[f] = piece
					return
				}
				k--
			}
		}
	}
	place(n%6, 'Q')
	n /= 6
	kn := knights[n]
	place(kn[1], 'N') // the later square first, so the earlier index stays right
	place(kn[0], 'N')
	place(0, 'R')
	place(0, 'K')
	place(0, 'R')
	return string(rank[:]), nil
}

// StartFEN returns the FEN of start position n, its castling rights as
// KQkq (each rook is the outermost on its side).
func StartFEN(n int) (string, error) {
	r, err := BackRank(n)
	if err != nil {
		return "", err
	}
	return strings.ToLower(r) + "/pppppppp/8/8/8/8/PPPPPPPP/" + r + " w KQkq - 0 1", nil
}

// New returns Chess960: chess's pieces and rules, castling written
// king-takes-rook, and a start drawn by the game's roller (Setup). Its
// fixed start (rules.Variant.Start) is position 518, the chess start.
func New() (*rules.Variant, error) {
	spec, err := variant.ChessSpec()
	if err != nil {
		return nil, fmt.Errorf("chess960: %w", err)
	}
	spec.Name = Name
	spec.Title = Title
	spec.PGNName = Title
	spec.Aliases = []string{"fischerandom", "fischerrandom", "frc"}
	spec.Description = "Chess from one of 960 start positions drawn at random: the back rank shuffled, " +
		"the bishops on squares of both colours, the king between the rooks, Black mirroring White. " +
		"Castling puts king and rook on the files they reach in chess."
	spec.Castling.KingTakesRook = true
	spec.Ext = rules960{}
	return rules.Compile(spec)
}

// rules960 is Chess960's own rule: its start is drawn (rules.Seeder).
type rules960 struct{}

// Setup draws the start position with one roll of a 960-sided die.
func (rules960) Setup(v *rules.Variant, r rules.Roller) (*rules.Position, error) {
	fen, err := StartFEN(r.Roll(Count))
	if err != nil {
		return nil, err
	}
	return v.ParseFEN(fen)
}
