package csipgs

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
)

// The terminal game (anychess play) of csipgs Chess: the shop and the
// design editor (face.Commands), and what a player learns of a ply
// (face.Observer).

// terminalHelp lists the commands play adds for csipgs Chess.
const terminalHelp = `csipgs Chess: a turn is an action, then a design decision.
  actions        a move (Ke2, e1e2), a transfer next to a royal (N@e2), a buy (+N)
  design moves   &- keeps the designs; &Q>Y=FfR puts the new design FfR in the
                 slot of Q (under the free letter Y); &Y>P re-adopts the type P
  shop           what you can buy now, at what price, and why not
  design [TEXT]  price TEXT (the price, the exact cost, colour binding and the
                 moves); without TEXT, the design editor: each line is priced
                 as you enter it, "put X" puts the last design into your slot X
                 in your design phase, an empty line or "done" leaves
`

// Help returns the commands csipgs Chess adds to the terminal game
// (face.Commands).
func (Face) Help() string { return terminalHelp }

// Command carries out the terminal commands "shop" and "design"
// (face.Commands).
func (Face) Command(c *face.Console, name, arg string) bool {
	switch strings.ToLower(name) {
	case "shop":
		fmt.Fprint(c.Out, shopText(c.Position()))
	case "design":
		designCommand(c, arg)
	default:
		return false
	}
	return true
}

// Observe says what colour c learns of the ply m played in p (Observed,
// face.Observer).
func (Face) Observe(p *rules.Position, m rules.Move, c rules.Color) (text, note string) {
	return Observed(p, m, c)
}

// shopText lists what the side to move can buy in p: each design in its
// slots with its price, and whether a buy is legal now or why not.
func shopText(p *rules.Position) string {
	us := p.Turn()
	var sb strings.Builder
	fmt.Fprintf(&sb, "the shop of %s (treasury %d", us, Treasury(p, us))
	if !DesignPhase(p) {
		fmt.Fprintf(&sb, ", %d with this turn's credit", Available(p))
	}
	sb.WriteString("):\n")
	prices := map[byte]int{}
	for _, td := range TypeTable(p) {
		prices[td.Letter] = td.Price
	}
	var seen []byte
	for _, l := range DesignSlots(p, us) {
		if slices.Contains(seen, l) {
			continue
		}
		seen = append(seen, l)
		status := fmt.Sprintf("buy with +%c", l)
		if err := BuyRefusal(p, l); err != nil {
			status = err.Error()
		}
		fmt.Fprintf(&sb, "  %c  %-12s %3d  %s\n", l, DesignOf(p, l), prices[l], status)
	}
	return sb.String()
}

// optionsOf returns the options of the game's variant v.
func optionsOf(v *rules.Variant) Options {
	if z, ok := hooksOfVariant(v); ok {
		return z.o
	}
	return DefaultOptions()
}

// priceLine prices a design text for the editor: "FfR: price 4 (exact
// 4), not colour-bound", or the fault with a caret under it.
func priceLine(text string, po ParseOptions) (string, bool) {
	pi, err := PriceWith(text, po)
	if err != nil {
		return designFault(text, err), false
	}
	return pi.String() + "\n", true
}

// designFault writes a design error with the text and a caret under the
// fault, one line each.
func designFault(text string, err error) string {
	var de *DesignError
	if !errors.As(err, &de) {
		return err.Error() + "\n"
	}
	return fmt.Sprintf("%v\n  %s\n  %s^\n", err, text, strings.Repeat(" ", min(de.Pos, len(text))))
}

// designCommand is the command "design": with a text, price it; without,
// open the design editor.
func designCommand(c *face.Console, arg string) {
	po := optionsOf(c.Variant).ParseOptions()
	if arg != "" {
		text, _ := priceLine(arg, po)
		fmt.Fprint(c.Out, text)
		return
	}
	fmt.Fprintln(c.Out, `design editor: type a design (FfR, royal-K, ffN) to see its price; "put X" puts the last one into your slot X; an empty line or "done" leaves`)
	last := ""
	c.Prompt = "design> "
	c.Lines = func(line string) bool {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.EqualFold(line, "done"):
			fmt.Fprintln(c.Out, "left the design editor")
			c.Show()
			return false
		case strings.EqualFold(f[0], "put"):
			if len(f) != 2 || len(f[1]) != 1 {
				fmt.Fprintln(c.Out, "put X: X is the letter of one of your slots")
				return true
			}
			if last == "" {
				fmt.Fprintln(c.Out, "put: type a design first")
				return true
			}
			return !putDesign(c, f[1][0], last)
		case strings.EqualFold(f[0], "help"):
			fmt.Fprint(c.Out, terminalHelp)
			return true
		}
		text, ok := priceLine(line, po)
		fmt.Fprint(c.Out, text)
		if ok {
			last = line
		}
		return true
	}
}

// putDesign plays the design move that puts design into the human's slot
// holding letter slot, or says why the rules refuse it. It reports
// whether the move was played.
func putDesign(c *face.Console, slot byte, design string) bool {
	if c.Over() {
		fmt.Fprintln(c.Out, "the game is over")
		return false
	}
	p := c.Position()
	if p.Turn() != c.Human {
		fmt.Fprintln(c.Out, "it is the engine's turn")
		return false
	}
	m, err := DesignMove(p, slot, design)
	if err != nil {
		if errors.Is(err, ErrNotDesignPhase) {
			fmt.Fprintln(c.Out, "refused: a design change comes after your action, in the design phase")
			return false
		}
		fmt.Fprintf(c.Out, "refused: %s", designFault(design, err))
		if !strings.HasSuffix(err.Error(), "\n") && !errors.Is(err, ErrDesign) {
			fmt.Fprintln(c.Out)
		}
		return false
	}
	_ = notation.Coord // the move is said by Play
	if err := c.Play(m); err != nil {
		fmt.Fprintf(c.Out, "refused: %v\n", err)
		return false
	}
	return true
}
