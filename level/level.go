// Package level is the engine's one scale of strengths: the levels a
// player chooses on the page and in the terminal, and the ones UCI's
// UCI_LimitStrength and UCI_Elo select. A level is a search depth, and
// each carries the Elo it scored
// in matches against Stockfish with limited strength, so that a player
// knows what a level means.
//
// The Elo figures are on Stockfish 15.1's UCI_Elo scale, measured in chess
// at 10 seconds plus 0.1 a move with one thread (the matches and their
// commands are in docs/strength.md). In the other variants a level
// searches as deep, and its Elo is a guide only: no rated opponent plays
// them.
package level

import (
	"fmt"
	"time"

	"github.com/anychess/anychess/search"
)

// Level is one strength of the engine.
type Level struct {
	N     int // 1..Max
	Depth int // the search's depth in plies
	// MaxTime caps a move's search (0: no cap of the level's own), so that
	// a level answers as fast on a large board with strong pieces as on a
	// chess board: 20 ms times the level's number squared. In chess the
	// depth is reached well within it.
	MaxTime time.Duration
	// Elo is the level's strength on Stockfish's UCI_Elo scale, measured
	// in chess, and Margin the half-width of its 95% interval.
	Elo, Margin int
}

// Max is the highest level.
const Max = 8

// levels is the scale, weakest first. The Elo figures are the maximum
// likelihood fit (package internal/elofit) of the matches in
// testdata/matches-354725.txt, played with the engine of bench 354725
// (docs/strength.md, section "Levels"), with Stockfish's UCI_Elo settings
// taken as exact; TestTableIsFit keeps them so. The earlier measurements'
// matches (benches 517221, 465769 and 279018) are kept beside them, and
// TestEarlierFit keeps their fits as the docs give them.
var levels = [Max]Level{
	{N: 1, Depth: 1, Elo: 1319, Margin: 74, MaxTime: 20 * time.Millisecond},
	{N: 2, Depth: 2, Elo: 1440, Margin: 65, MaxTime: 80 * time.Millisecond},
	{N: 3, Depth: 3, Elo: 1683, Margin: 62, MaxTime: 180 * time.Millisecond},
	{N: 4, Depth: 4, Elo: 1757, Margin: 60, MaxTime: 320 * time.Millisecond},
	{N: 5, Depth: 5, Elo: 1814, Margin: 59, MaxTime: 500 * time.Millisecond},
	{N: 6, Depth: 6, Elo: 1860, Margin: 59, MaxTime: 720 * time.Millisecond},
	{N: 7, Depth: 8, Elo: 2011, Margin: 57, MaxTime: 980 * time.Millisecond},
	{N: 8, Depth: 10, Elo: 2177, Margin: 65},
}

// All returns the levels, weakest first.
func All() []Level { return append([]Level(nil), levels[:]...) }

// Get returns level n, or an error naming the range if there is none.
func Get(n int) (Level, error) {
	if n < 1 || n > Max {
		return Level{}, fmt.Errorf("level %d: want 1 to %d", n, Max)
	}
	return levels[n-1], nil
}

// At returns level n, taking a number below 1 as 1 and above Max as Max.
func At(n int) Level { return levels[min(max(n, 1), Max)-1] }

// MinElo and MaxElo are the Elo of the weakest and the strongest level.
func MinElo() int { return levels[0].Elo }

// MaxElo is the Elo of the strongest level.
func MaxElo() int { return levels[Max-1].Elo }

// ForElo returns the strongest level whose Elo is at most elo, or the
// weakest level if elo is below all of them.
func ForElo(elo int) Level {
	best := levels[0]
	for _, l := range levels {
		if l.Elo <= elo {
			best = l
		}
	}
	return best
}

// Limits returns the search limits of the level for a move: its depth,
// within its own time cap and maxTime (0: no cap but the level's). The
// top level has no time cap of its own: it takes maxTime.
func (l Level) Limits(maxTime time.Duration) search.Limits {
	t := maxTime
	if l.MaxTime > 0 && (t <= 0 || l.MaxTime < t) {
		t = l.MaxTime
	}
	return search.Limits{Depth: l.Depth, MoveTime: t}
}

// String describes the level: "level 4 (depth 4, Elo about 1671 ± 75)".
func (l Level) String() string {
	if l.Elo == 0 {
		return fmt.Sprintf("level %d (depth %d)", l.N, l.Depth)
	}
	return fmt.Sprintf("level %d (depth %d, Elo about %d ± %d)", l.N, l.Depth, l.Elo, l.Margin)
}
