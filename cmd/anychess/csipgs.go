package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/anychess/anychess/face"
	"slices"
	"strings"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant/csipgs"
)

// csipgs Chess in the terminal: the economy (treasuries, reserves,
// designs), the shop, the design editor, the engine's whole turn, and in
// the moderated mode the human's view and the moderator.

// maxEngineRefusals bounds the moves the moderator refuses the engine in
// one decision before it gives up.
const maxEngineRefusals = 32

// csipgsHelp lists the commands play adds for csipgs Chess.
const csipgsHelp = `csipgs Chess: a turn is an action, then a design decision.
  actions        a move (Ke2, e1e2), a transfer next to a royal (N@e2), a buy (+N)
  design moves   &- keeps the designs; &Q>Y=FfR puts the new design FfR in the
                 slot of Q (under the free letter Y); &Y>P re-adopts the type P
  shop           what you can buy now, at what price, and why not
  design [TEXT]  price TEXT (the price, the exact cost, colour binding and the
                 moves); without TEXT, the design editor: each line is priced
                 as you enter it, "put X" puts the last design into your slot X
                 in your design phase, an empty line or "done" leaves
`

// economyText describes both sides' treasuries, reserves and designs, as
// p shows them (a view in the moderated mode); hidden marks an economy the
// viewer may not see.
func economyText(p *rules.Position, hideOf rules.Color, hidden bool) string {
	var sb strings.Builder
	prices := priceTable(p)
	for c := rules.White; c <= rules.Black; c++ {
		fmt.Fprintf(&sb, "%s: ", c)
		if hidden && c == hideOf {
			sb.WriteString("treasury and reserve hidden, designs hidden\n")
			continue
		}
		fmt.Fprintf(&sb, "treasury %d", csipgs.Treasury(p, c))
		if p.Turn() == c && !csipgs.DesignPhase(p) {
			fmt.Fprintf(&sb, " (%d to spend with this turn's credit)", csipgs.Available(p))
		}
		sb.WriteString(", reserve ")
		sb.WriteString(reserveText(p, c))
		sb.WriteString(", designs")
		for _, l := range distinctSlots(p, c) {
			fmt.Fprintf(&sb, " %c=%s(%d)", l, csipgs.DesignOf(p, l), prices[l])
		}
		sb.WriteByte('\n')
	}
	if others := otherTypes(p); others != "" {
		fmt.Fprintf(&sb, "other types: %s\n", others)
	}
	return sb.String()
}

// reserveText lists c's reserve: "N P P", or "-".
func reserveText(p *rules.Position, c rules.Color) string {
	var parts []string
	for t := rules.Type(1); t <= 26; t++ {
		for range p.Pocket(c, t) {
			parts = append(parts, string(rune('A'+int(t)-1)))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

// otherTypes lists the types of the type table no slot holds (pieces
// bought with a design since replaced): "Y=FfR".
func otherTypes(p *rules.Position) string {
	inSlot := map[byte]bool{}
	for c := rules.White; c <= rules.Black; c++ {
		for _, l := range csipgs.DesignSlots(p, c) {
			inSlot[l] = true
		}
	}
	var parts []string
	for _, td := range csipgs.TypeTable(p) {
		if !inSlot[td.Letter] {
			parts = append(parts, fmt.Sprintf("%c=%s", td.Letter, td.Design))
		}
	}
	return strings.Join(parts, " ")
}

// shopText lists what the side to move can buy in p: each design in its
// slots with its price, and whether a buy is legal now or why not.
func shopText(p *rules.Position) string {
	us := p.Turn()
	var sb strings.Builder
	fmt.Fprintf(&sb, "the shop of %s (treasury %d", us, csipgs.Treasury(p, us))
	if !csipgs.DesignPhase(p) {
		fmt.Fprintf(&sb, ", %d with this turn's credit", csipgs.Available(p))
	}
	sb.WriteString("):\n")
	prices := priceTable(p)
	for _, l := range distinctSlots(p, us) {
		status := fmt.Sprintf("buy with +%c", l)
		if err := csipgs.BuyRefusal(p, l); err != nil {
			status = err.Error()
		}
		fmt.Fprintf(&sb, "  %c  %-12s %3d  %s\n", l, csipgs.DesignOf(p, l), prices[l], status)
	}
	return sb.String()
}

// priceTable returns the price of each type letter of p's type table.
func priceTable(p *rules.Position) map[byte]int {
	prices := map[byte]int{}
	for _, td := range csipgs.TypeTable(p) {
		prices[td.Letter] = td.Price
	}
	return prices
}

// distinctSlots returns the letters in c's design slots, each once, in
// slot order (a type may fill several slots).
func distinctSlots(p *rules.Position, c rules.Color) []byte {
	var out []byte
	for _, l := range csipgs.DesignSlots(p, c) {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// priceLine prices a design text for the editor: "FfR: price 4 (exact
// 4), not colour-bound", or the fault with a caret under it.
func priceLine(text string, po csipgs.ParseOptions) (string, bool) {
	pi, err := csipgs.PriceWith(text, po)
	if err != nil {
		return designFault(text, err), false
	}
	return pi.String() + "\n", true
}

// csipgsOptions returns the options of the session's csipgs variant.
func (s *session) csipgsOptions() csipgs.Options {
	o := csipgs.DefaultOptions()
	tags := map[string]string{}
	for _, opt := range s.v.Options() {
		tags[opt.Name] = opt.Value
	}
	_ = o.SetTags(tags) // the variant's own tags are valid
	return o
}

// designCommand is the play command "design": with a text, price it;
// without, start the design editor.
func (s *session) designCommand(arg string) {
	if arg == "" {
		s.editing = true
		fmt.Fprintln(s.out, `design editor: type a design (FfR, royal-K, ffN) to see its price; "put X" puts the last one into your slot X; an empty line or "done" leaves`)
		return
	}
	text, _ := priceLine(arg, s.csipgsOptions().ParseOptions())
	fmt.Fprint(s.out, text)
}

// editLine handles a line of the design editor.
func (s *session) editLine(line string) {
	f := strings.Fields(line)
	switch {
	case len(f) == 0 || strings.EqualFold(line, "done"):
		s.editing = false
		fmt.Fprintln(s.out, "left the design editor")
		s.show()
		return
	case strings.EqualFold(f[0], "put"):
		if len(f) != 2 || len(f[1]) != 1 {
			fmt.Fprintln(s.out, "put X: X is the letter of one of your slots")
			return
		}
		if s.lastDesign == "" {
			fmt.Fprintln(s.out, "put: type a design first")
			return
		}
		if s.putDesign(f[1][0], s.lastDesign) {
			s.editing = false
		}
		return
	case strings.EqualFold(f[0], "help"):
		fmt.Fprint(s.out, csipgsHelp)
		return
	}
	text, ok := priceLine(line, s.csipgsOptions().ParseOptions())
	fmt.Fprint(s.out, text)
	if ok {
		s.lastDesign = line
	}
}

// putDesign plays the design move that puts design into the human's slot
// holding letter slot, or says why the rules refuse it. It reports
// whether the move was played.
func (s *session) putDesign(slot byte, design string) bool {
	if s.g.Status().Over() {
		fmt.Fprintln(s.out, "the game is over")
		return false
	}
	p := s.displayPos()
	if p.Turn() != s.human {
		fmt.Fprintln(s.out, "it is the engine's turn")
		return false
	}
	m, err := csipgs.DesignMove(p, slot, design)
	if err != nil {
		if errors.Is(err, csipgs.ErrNotDesignPhase) {
			fmt.Fprintln(s.out, "refused: a design change comes after your action, in the design phase")
			return false
		}
		fmt.Fprintf(s.out, "refused: %s", designFault(design, err))
		if !strings.HasSuffix(err.Error(), "\n") && !errors.Is(err, csipgs.ErrDesign) {
			fmt.Fprintln(s.out)
		}
		return false
	}
	label := moveLabel(p, m)
	if _, err := s.playCsipgs(m); err != nil {
		fmt.Fprintf(s.out, "refused: %v\n", err)
		return false
	}
	fmt.Fprintf(s.out, "you play %s\n", label)
	if s.g.Status().Over() || s.pos().Turn() == s.human {
		s.show()
	}
	return true
}

// playCsipgs plays m, chosen from what the human sees, in the game. In
// the moderated mode the moderator (rules.Position.Moderate) judges m,
// a move of the human's view, on the true position: it plays the move m
// stands for there (a capture of a piece the view does not show, a new
// design under the letter the rules give it), or refuses it with its
// reason.
func (s *session) playCsipgs(m rules.Move) (int, error) {
	if s.moderated {
		real, err := face.Moderate(s.pos(), s.displayPos(), m)
		if err != nil {
			return 0, err
		}
		m = real
	}
	return s.play(m)
}

// displayPos returns the position the human may see: the game's, or in
// the moderated mode the human's view of it.
func (s *session) displayPos() *rules.Position {
	if s.moderated {
		if v := s.pos().View(s.human).Position; v != nil {
			return v
		}
	}
	return s.pos()
}

// csipgsEngineMove is the engine's decision in csipgs Chess: the whole
// turn through package ai; in the moderated mode from the engine's view,
// asking again (without the refused moves) when the moderator refuses.
func (s *session) csipgsEngineMove(p *rules.Position) (search.Result, int, error) {
	if !s.moderated {
		res, err := s.pl.Search(context.Background(), p.Clone(), s.limits(), nil)
		return res, 0, err
	}
	m, refused, err := face.Play(context.Background(), s.pl, p, s.limits(), maxEngineRefusals)
	return search.Result{Best: m}, refused, err
}

// engineActionText describes the engine's decision m in p for a human who
// may not see p whole: a design decision and a buy are public (unless the
// economy is hidden), a move or a transfer is not.
func engineActionText(p *rules.Position, m rules.Move, hideEconomy bool) string {
	switch csipgs.KindOf(m) {
	case csipgs.Redesign, csipgs.Pass:
		return notation.Coord(p, m)
	case csipgs.Buy:
		if !hideEconomy {
			return notation.Coord(p, m)
		}
	}
	return "an action you cannot see"
}

// csipgsEngine lets the engine make its decision in a csipgs game and
// reports it: in full, or in the moderated mode only what the human may
// know of it.
func (s *session) csipgsEngine(p *rules.Position) {
	us := p.Turn()
	res, refused, err := s.csipgsEngineMove(p)
	if err != nil || res.Best == rules.NoMove {
		why := "it found no move"
		if err != nil {
			why = err.Error()
		}
		s.engineFails(us, why)
		return
	}
	label := moveLabel(p, res.Best)
	if s.moderated {
		label = engineActionText(p, res.Best, s.hideEcon)
	}
	if _, err := s.play(res.Best); err != nil {
		s.engineFails(us, err.Error())
		return
	}
	switch {
	case s.moderated && refused > 0:
		fmt.Fprintf(s.out, "engine (%s): %d refused (illegal, try again), then %s\n", us, refused, label)
	case s.moderated:
		fmt.Fprintf(s.out, "engine (%s): %s\n", us, label)
	case csipgs.KindOf(res.Best) == csipgs.Redesign || csipgs.KindOf(res.Best) == csipgs.Pass:
		fmt.Fprintf(s.out, "engine (%s) designs %s\n", us, label)
	default:
		fmt.Fprintf(s.out, "engine (%s) plays %s  [%s, depth %d, %.2fs]\n", us, label,
			scoreText(res.Info, us), res.Info.Depth, res.Info.Time.Seconds())
	}
	if s.g.Status().Over() || s.pos().Turn() == s.human {
		s.show()
	}
}
