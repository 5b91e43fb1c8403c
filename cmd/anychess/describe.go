package main

import (
	"fmt"
	"strings"

	"github.com/anychess/anychess/face"
)

// describeText writes a variant's description of a position for the
// terminal: a line for each side's counters and piece types, one for the
// counters of both, the types no side holds, the squares with a title,
// and the notes.
func describeText(d face.Description) string {
	var sb strings.Builder
	for _, side := range []string{"white", "black"} {
		var parts []string
		for _, c := range d.Counters {
			if c.Side == side {
				parts = append(parts, c.Name+" "+c.Value)
			}
		}
		var types []string
		for _, t := range d.Types {
			if t.Side == side {
				types = append(types, typeText(t))
			}
		}
		if len(types) > 0 {
			parts = append(parts, "types "+strings.Join(types, " "))
		}
		if len(parts) > 0 {
			fmt.Fprintf(&sb, "%s: %s\n", side, strings.Join(parts, ", "))
		}
	}
	var both, others, squares []string
	for _, c := range d.Counters {
		if c.Side == "" {
			both = append(both, c.Name+": "+c.Value)
		}
	}
	if len(both) > 0 {
		fmt.Fprintf(&sb, "%s\n", strings.Join(both, "; "))
	}
	for _, t := range d.Types {
		if t.Side == "" {
			others = append(others, typeText(t))
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(&sb, "other types: %s\n", strings.Join(others, " "))
	}
	for _, s := range d.Squares {
		if s.Title != "" {
			squares = append(squares, s.Square+" "+s.Title)
		}
	}
	if len(squares) > 0 {
		fmt.Fprintf(&sb, "squares: %s\n", strings.Join(squares, "; "))
	}
	for _, n := range d.Notes {
		fmt.Fprintf(&sb, "%s\n", n)
	}
	return sb.String()
}

// typeText writes a piece type: "A=FfR(4)", its price where it has one.
func typeText(t face.PieceType) string {
	s := t.Letter + "=" + t.Movement
	if t.Name != "" && t.Movement == "" {
		s = t.Letter + "=" + t.Name
	}
	if t.Price > 0 {
		s += fmt.Sprintf("(%d)", t.Price)
	}
	return s
}
