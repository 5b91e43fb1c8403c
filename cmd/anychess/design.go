package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/anychess/anychess/variant/csipgs"
)

// runDesign prices csipgs designs: for each, the price, the exact cost
// before rounding, whether the piece is colour-bound (and royal, relay),
// and its moves from the centre of an empty board; or the fault, pointed
// at.
func runDesign(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("design", "DESIGN...", stderr)
	size := fs.Int("size", 9, "the empty board the moves are drawn on: 3..15, odd")
	var opts optList
	fs.Var(&opts, "opt", "a csipgs option that changes prices, NAME=VALUE (repeatable), e.g. -opt GForwardMultiplier=0.5")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: anychess design [flags] DESIGN...\n\n")
		fmt.Fprintf(stderr, "Price csipgs Chess piece designs in Betza's notation (FfR, royal-K, fmWfcF, ffN).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "anychess design: give a design, e.g. anychess design FfR")
		fs.Usage()
		return 2
	}
	if *size < 3 || *size > 15 || *size%2 == 0 {
		fmt.Fprintf(stderr, "anychess design: -size %d: want an odd number from 3 to 15\n", *size)
		return 2
	}
	o := csipgs.DefaultOptions()
	if len(opts) > 0 {
		var known []string
		for _, t := range o.Tags() {
			known = append(known, t[0])
		}
		tags := map[string]string{}
		for _, kv := range opts {
			if !slices.Contains(known, kv[0]) {
				return fail(stderr, "design", fmt.Errorf("-opt %s: csipgs has the options %s", kv[0], strings.Join(known, ", ")))
			}
			tags[kv[0]] = kv[1]
		}
		if err := o.SetTags(tags); err != nil {
			return fail(stderr, "design", err)
		}
	}
	status := 0
	for i, text := range fs.Args() {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		pi, err := csipgs.PriceIn(text, o)
		if err != nil {
			fmt.Fprintf(stderr, "anychess design: %s", designFault(text, err))
			status = 1
			continue
		}
		fmt.Fprint(stdout, describeDesign(pi, *size))
	}
	return status
}

// describeDesign writes what the design command prints for one design.
func describeDesign(pi csipgs.PriceInfo, size int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "design %s\n", pi.Design)
	fmt.Fprintf(&sb, "price %d (exact cost %s, rounded up)\n", pi.Price, pi.Decimal())
	fmt.Fprintf(&sb, "colour-bound %s\n", yesNo(pi.ColorBound))
	if pi.Royal {
		sb.WriteString("royal: yes (price x4)\n")
	}
	if pi.Relay {
		sb.WriteString("relay: yes (price x2)\n")
	}
	var powers []string
	for _, w := range pi.Powers {
		powers = append(powers, w.String())
	}
	fmt.Fprintf(&sb, "powers %s\n", strings.Join(powers, " "))
	fmt.Fprintf(&sb, "moves from the centre of an empty %dx%d board (* the piece, x move or capture, m move only, c capture only):\n", size, size)
	for _, row := range strings.Split(strings.TrimSuffix(pi.Diagram(size), "\n"), "\n") {
		sb.WriteString("  ")
		for i := range len(row) {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteByte(row[i])
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// designFault writes a design error with the text and a caret under the
// fault, one line each.
func designFault(text string, err error) string {
	var de *csipgs.DesignError
	if !errors.As(err, &de) {
		return err.Error() + "\n"
	}
	return fmt.Sprintf("%v\n  %s\n  %s^\n", err, de.Input, strings.Repeat(" ", min(de.Pos, len(de.Input))))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
