package tune

import (
	"bufio"
	"fmt"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/rules"
)

// Game is one game played elsewhere (a game record), as a sample takes
// it: the positions to fit, in FEN, and the game's result for White (1, a
// half or 0).
type Game struct {
	FENs   []string
	Result float64
}

// QuietPositions returns the positions a sample keeps of the game g:
// the quiet ones, as self-play keeps them, leaving out the
// first skip plies (a random opening) and keeping one ply in every
// (every below 1 counts as 1).
func QuietPositions(g *game.Game, skip, every int) []string {
	every = max(every, 1)
	var fens []string
	g.Replay(func(p *rules.Position, i int) {
		m := g.Plies[i].Move
		if i >= skip && (i-skip)%every == 0 && quiet(p, m) {
			fens = append(fens, p.FEN())
		}
	})
	return fens
}

// RecordsHeader is the header line of a sample taken from game records
// (WriteSample): the variant with its options, the records' name and
// fingerprint and how the positions were picked, so that the scores of
// another sample are never read as this one's.
func RecordsHeader(v *rules.Variant, name string, sum []byte, skip, every int) string {
	return fmt.Sprintf("# anychess tune sample: variant %s records %s sha256 %x random %d every %d", v.Name(), name, sum, skip, max(every, 1)) + optionsText(v)
}

// WriteSample writes games as the sample file path, game i numbered i,
// after the header line header (RecordsHeader), in the format Generate
// writes, and returns its positions: a sample that Label scores and a fit
// reads as one of self-play.
func WriteSample(path, header string, games []Game) ([]Position, error) {
	var ps []Position
	s := Sample{Header: header, Games: map[int]bool{}}
	for g, gm := range games {
		switch gm.Result {
		case 0, 0.5, 1:
		default:
			return nil, fmt.Errorf("tune: game %d: result %v, want 1, 0.5 or 0", g, gm.Result)
		}
		s.Games[g] = true
		for _, fen := range gm.FENs {
			ps = append(ps, Position{Game: g, FEN: fen, Result: gm.Result})
		}
	}
	s.Positions = ps
	f, err := rewrite(path, func(w *bufio.Writer) {
		fmt.Fprintln(w, header)
		writeGames(w, s)
	})
	if err != nil {
		return nil, err
	}
	return ps, f.Close()
}
