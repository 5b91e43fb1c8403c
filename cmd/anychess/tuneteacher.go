package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/anychess/anychess/match"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/tune"
)

// uciTeacher is tune's teacher played by an external UCI engine: each
// worker starts the engine once, and each position is one "position fen"
// and "go nodes N".
type uciTeacher struct {
	spec match.Spec
	id   string // the engine's name for itself ("id name"), from identify
}

// newUCITeacher reads -label-engine's value: a command and its UCI
// options as in a match's uci: player ("/usr/games/stockfish:Hash=16").
func newUCITeacher(s string) (*uciTeacher, error) {
	sp, err := match.ParseSpec("uci:" + s)
	if err != nil {
		return nil, fmt.Errorf("-label-engine: %w", err)
	}
	return &uciTeacher{spec: sp}, nil
}

// identify starts the engine once to learn its name for itself (its "id
// name", which carries its version), so that Name tells apart two
// engines run by the same command: a Stockfish upgraded in place must
// not extend the scores of the one before.
func (t *uciTeacher) identify() error {
	e, err := match.StartUCI(t.spec)
	if err != nil {
		return fmt.Errorf("-label-engine: %w", err)
	}
	t.id = strings.Join(strings.Fields(e.Name()), " ")
	return e.Close()
}

// Name is the engine's command and options, then its name for itself if
// identify learnt it, as the labels file's header records them.
func (t *uciTeacher) Name() string {
	if t.id == "" {
		return t.spec.String()
	}
	return t.spec.String() + " (" + t.id + ")"
}

// searchTimeout bounds one position's search: a search of a fixed number
// of nodes that takes longer means the engine hangs.
const searchTimeout = 2 * time.Minute

// Open starts the engine and checks that it plays v.
func (t *uciTeacher) Open(ctx context.Context, v *rules.Variant) (tune.Scorer, error) {
	e, err := match.StartUCI(t.spec)
	if err != nil {
		return nil, err
	}
	s := &uciScorer{e: e, v: v}
	if err := s.NewGame(ctx); err != nil {
		e.Close()
		return nil, err
	}
	return s, nil
}

// uciScorer is one running engine of a uciTeacher.
type uciScorer struct {
	e *match.UCIEngine
	v *rules.Variant
}

// NewGame sends the variant and ucinewgame, which clears the engine's hash
// table.
func (s *uciScorer) NewGame(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, searchTimeout)
	defer cancel()
	return s.e.NewGame(ctx, s.v)
}

// Score searches p for nodes nodes and returns the score of the engine's
// last info line with an exact score (parseUCIScore).
func (s *uciScorer) Score(ctx context.Context, p *rules.Position, nodes int64) (int, int, error) {
	ctx, cancel := context.WithTimeout(ctx, searchTimeout)
	defer cancel()
	infos, err := s.e.Search(ctx, p, fmt.Sprintf("go nodes %d", nodes))
	if err != nil {
		return 0, 0, err
	}
	return lastUCIScore(infos)
}

// Close ends the engine.
func (s *uciScorer) Close() error { return s.e.Close() }

// errNoScore is the error of a search whose info lines carry no score.
var errNoScore = errors.New("no score in the engine's info lines")

// lastUCIScore returns the score of the last of the info lines with an
// exact score, else of the last with a bound (a search stopped at its
// node limit inside an aspiration window reports a bound last): cp, or
// mate if not 0. A line whose score cannot be read is an error.
func lastUCIScore(infos []string) (cp, mate int, err error) {
	found, exact := false, false
	for _, l := range infos {
		c, m, bound, ok, err := parseUCIScore(l)
		if err != nil {
			return 0, 0, err
		}
		if !ok || (exact && bound) {
			continue
		}
		cp, mate, found, exact = c, m, true, !bound
	}
	if !found {
		return 0, 0, errNoScore
	}
	return cp, mate, nil
}

// parseUCIScore reads the score of a UCI info line: "score cp X" or
// "score mate Y", with "lowerbound" or "upperbound" after it (before the
// pv) for a bound.
// ok is false for a line without a score, or of a line of MultiPV other
// than the first; "mate 0" (the side to move is mated) reads as a mate
// against it (-1). A score that is not a number, or beyond 100000
// centipawns or 10000 moves, is an error.
func parseUCIScore(line string) (cp, mate int, bound, ok bool, err error) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "info" {
		return 0, 0, false, false, nil
	}
	at := -1
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "multipv":
			if i+1 < len(f) && f[i+1] != "1" {
				return 0, 0, false, false, nil
			}
		case "score":
			if at < 0 {
				at = i
			}
		case "pv", "string":
			// The rest of the line is moves or text.
			i = len(f)
		}
	}
	if at < 0 {
		return 0, 0, false, false, nil
	}
	if at+2 >= len(f) {
		return 0, 0, false, false, fmt.Errorf("info line %q: a score without a value", line)
	}
	n, err := strconv.Atoi(f[at+2])
	if err != nil {
		return 0, 0, false, false, fmt.Errorf("info line %q: score %q is not a number", line, f[at+2])
	}
	// The bound follows the score, after the win/draw/loss of
	// UCI_ShowWDL if the engine sends it ("score cp 12 wdl 14 982 4
	// upperbound").
	for _, w := range f[at+3:] {
		if w == "lowerbound" || w == "upperbound" {
			bound = true
		}
		if w == "pv" || w == "string" {
			break
		}
	}
	switch f[at+1] {
	case "cp":
		if n < -100000 || n > 100000 {
			return 0, 0, false, false, fmt.Errorf("info line %q: score cp %d is out of range", line, n)
		}
		return n, 0, bound, true, nil
	case "mate":
		if n < -10000 || n > 10000 {
			return 0, 0, false, false, fmt.Errorf("info line %q: score mate %d is out of range", line, n)
		}
		if n == 0 {
			n = -1 // the side to move is mated: as lost as a mate against it
		}
		return 0, n, bound, true, nil
	}
	return 0, 0, false, false, fmt.Errorf("info line %q: score %q is neither cp nor mate", line, f[at+1])
}
