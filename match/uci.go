package match

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant/chess960"
)

// uciPlayer drives an external engine over UCI.
type uciPlayer struct {
	*process
	spec    Spec
	options map[string]bool // the options the engine announced, lower case
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func newUCIPlayer(sp Spec) (*uciPlayer, error) {
	proc, err := startProcess(sp)
	if err != nil {
		return nil, fmt.Errorf("uci engine %s: %w", sp.Path, err)
	}
	u := &uciPlayer{process: proc, spec: sp, options: map[string]bool{}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	u.send("uci")
	for {
		l, err := u.read(ctx)
		if err != nil {
			u.Close()
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("%w%s", err, u.stderrNote())
			}
			return nil, fmt.Errorf("uci engine %s: no uciok: %w", sp.Path, err)
		}
		if strings.HasPrefix(l, "id name ") {
			u.name = strings.TrimPrefix(l, "id name ")
		}
		if rest, ok := strings.CutPrefix(l, "option name "); ok {
			name, _, _ := strings.Cut(rest, " type ")
			u.options[strings.ToLower(strings.TrimSpace(name))] = true
		}
		if l == "uciok" {
			break
		}
	}
	for _, k := range sortedKeys(sp.Options) {
		u.send("setoption name " + k + " value " + sp.Options[k])
	}
	return u, nil
}

// Name is the engine's name for itself.
func (u *uciPlayer) Name() string { return u.name }

// option returns the spec's value of a UCI option; UCI option names are
// not case-sensitive.
func (u *uciPlayer) option(name string) (string, bool) {
	for k, v := range u.spec.Options {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}

// NewGame sets the variant (unless the spec gives the engine's own name
// for it in UCI_Variant, sent with the other options; Chess960 by
// UCI_Chess960) and waits for the engine to be ready.
func (u *uciPlayer) NewGame(ctx context.Context, v *rules.Variant) error {
	switch opt := u.variantOption(v); opt {
	case "":
	case "UCI_Chess960":
		u.send("setoption name UCI_Chess960 value true")
	default:
		u.send("setoption name UCI_Variant value " + v.Name())
	}
	u.send("ucinewgame")
	u.send("isready")
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	for {
		l, err := u.read(ctx)
		if err != nil {
			return fmt.Errorf("%s: no readyok: %w", u.name, err)
		}
		if l == "readyok" {
			return nil
		}
	}
}

// variantOption names the UCI option that sets v for the engine: none
// for chess or when the spec gives the engine's own name for the variant
// in UCI_Variant, UCI_Chess960 for Chess960 (UCI's own option, which
// chess engines know; castling is written king-takes-rook both ways),
// else UCI_Variant.
func (u *uciPlayer) variantOption(v *rules.Variant) string {
	_, own := u.option("UCI_Variant")
	switch {
	case own, v.Name() == "chess":
		return ""
	case v.Name() == chess960.Name:
		return "UCI_Chess960"
	}
	return "UCI_Variant"
}

// positionCommand returns the UCI command that sets up the game from
// start through history: "position fen START moves ...", each move in
// coordinates followed by the Mark of its outcome when that is not the
// first ("e4d5~" for a failed Vazir try).
func positionCommand(start *rules.Position, history []game.Ply) string {
	var sb strings.Builder
	sb.WriteString("position fen " + start.FEN())
	if len(history) > 0 {
		sb.WriteString(" moves")
		q := start.Clone()
		for _, pl := range history {
			sb.WriteString(" " + notation.Coord(q, pl.Move))
			if pl.Outcome != 0 {
				sb.WriteString(notation.Mark(q, pl.Move, pl.Outcome))
			}
			q.MakeOutcome(pl.Move, pl.Outcome)
		}
	}
	return sb.String()
}

// Move sends the game (positionCommand) and the clocks and returns the
// engine's bestmove.
func (u *uciPlayer) Move(ctx context.Context, start, p *rules.Position, history []game.Ply, clk Clock) (rules.Move, error) {
	u.send(positionCommand(start, history))
	ms := func(d time.Duration) int64 { return max(d.Milliseconds(), 1) }
	limit := clk.MoveTime
	if clk.MoveTime > 0 {
		u.send(fmt.Sprintf("go movetime %d", ms(clk.MoveTime)))
	} else {
		w, b := clk.Left, clk.OppLeft
		wi, bi := clk.Inc, clk.OppInc
		if p.Turn() == rules.Black {
			w, b, wi, bi = b, w, bi, wi
		}
		u.send(fmt.Sprintf("go wtime %d btime %d winc %d binc %d", ms(w), ms(b), ms(wi), ms(bi)))
		limit = clk.Left
	}
	ctx, cancel := context.WithTimeout(ctx, limit+5*time.Second)
	defer cancel()
	for {
		l, err := u.read(ctx)
		if err != nil {
			return rules.NoMove, fmt.Errorf("%s: no bestmove: %w", u.name, err)
		}
		if !strings.HasPrefix(l, "bestmove") {
			continue
		}
		f := strings.Fields(l)
		if len(f) < 2 {
			return rules.NoMove, fmt.Errorf("%s: %q", u.name, l)
		}
		m, err := notation.ParseCoord(p, f[1])
		if err != nil {
			return rules.NoMove, fmt.Errorf("%s played %s: %w", u.name, f[1], err)
		}
		return m, nil
	}
}

// Close sends quit and ends the process if it does not exit at once.
func (u *uciPlayer) Close() error {
	u.close()
	return nil
}

// UCIEngine is an external UCI engine that scores positions rather than
// playing a match's games (anychess tune's teacher). One goroutine uses
// it at a time.
type UCIEngine struct {
	u *uciPlayer
}

// StartUCI starts the external engine of a uci spec (as ParseSpec reads
// it), waits for its uciok and sends the spec's options.
func StartUCI(sp Spec) (*UCIEngine, error) {
	if sp.Kind != "uci" || sp.Path == "" {
		return nil, fmt.Errorf("uci engine: %q is not a uci:COMMAND spec", sp.String())
	}
	u, err := newUCIPlayer(sp)
	if err != nil {
		return nil, err
	}
	return &UCIEngine{u: u}, nil
}

// Name is the engine's name for itself.
func (e *UCIEngine) Name() string { return e.u.name }

// NewGame sets the variant v (chess needs nothing, Chess960 UCI_Chess960,
// another variant UCI_Variant unless the spec gives it), sends ucinewgame
// and waits for readyok. An engine without the option the variant needs
// is refused.
func (e *UCIEngine) NewGame(ctx context.Context, v *rules.Variant) error {
	if opt := e.u.variantOption(v); opt != "" && !e.u.options[strings.ToLower(opt)] {
		return fmt.Errorf("%s: no option %s: it does not play %s", e.u.name, opt, v.Name())
	}
	return e.u.NewGame(ctx, v)
}

// Search sends the position p and the command goCmd (as "go nodes 5000")
// and returns the engine's info lines with a score, in order, once it has
// sent its bestmove.
func (e *UCIEngine) Search(ctx context.Context, p *rules.Position, goCmd string) ([]string, error) {
	_, infos, err := e.search(ctx, p, goCmd)
	return infos, err
}

// Best is Search that also returns the engine's bestmove, as a move of p.
func (e *UCIEngine) Best(ctx context.Context, p *rules.Position, goCmd string) (rules.Move, []string, error) {
	best, infos, err := e.search(ctx, p, goCmd)
	if err != nil {
		return rules.NoMove, nil, err
	}
	m, err := notation.ParseCoord(p, best)
	if err != nil {
		return rules.NoMove, nil, fmt.Errorf("%s played %s: %w", e.u.name, best, err)
	}
	return m, infos, nil
}

// search is Search with the bestmove's text.
func (e *UCIEngine) search(ctx context.Context, p *rules.Position, goCmd string) (string, []string, error) {
	if err := e.u.send(positionCommand(p, nil), goCmd); err != nil {
		return "", nil, err
	}
	var infos []string
	for {
		l, err := e.u.read(ctx)
		if err != nil {
			return "", nil, fmt.Errorf("%s: no bestmove: %w", e.u.name, err)
		}
		switch {
		case strings.HasPrefix(l, "bestmove"):
			f := strings.Fields(l)
			if len(f) < 2 {
				return "", nil, fmt.Errorf("%s: %q", e.u.name, l)
			}
			return f[1], infos, nil
		case strings.HasPrefix(l, "info ") && strings.Contains(l, " score "):
			infos = append(infos, l)
		}
	}
}

// Close sends quit and ends the process if it does not exit at once.
func (e *UCIEngine) Close() error { return e.u.Close() }
