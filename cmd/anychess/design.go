package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/face"
	"github.com/anychess/anychess/rules"
)

// runDesign prices piece designs by the rules of a variant whose pieces
// are designed (its face is a face.Designer): for each, the price, the
// exact cost before rounding, whether the piece is colour-bound (and
// royal, relay), and its moves from the centre of an empty board; or the
// fault, pointed at.
func runDesign(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("design", "DESIGN...", stderr)
	size := fs.Int("size", 9, "the empty board the moves are drawn on: 3..15, odd")
	name := fs.String("variant", "", "the variant whose rules price the designs (default: the first with designed pieces)")
	var opts optList
	fs.Var(&opts, "opt", "an option of the variant that changes prices, NAME=VALUE (repeatable), e.g. -opt GForwardMultiplier=0.5")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: anychess design [flags] DESIGN...\n\n")
		fmt.Fprintf(stderr, "Price piece designs in Betza's notation (FfR, royal-K, fmWfcF, ffN).\n\nFlags:\n")
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
	v, designer, err := designerOf(*name)
	if err != nil {
		return fail(stderr, "design", err)
	}
	if len(opts) > 0 {
		var known []string
		for _, o := range v.AllOptions() {
			known = append(known, o.Name)
		}
		tags := map[string]string{}
		for _, kv := range opts {
			if !slices.Contains(known, kv[0]) {
				return fail(stderr, "design", fmt.Errorf("-opt %s: %s has the options %s", kv[0], v.Name(), strings.Join(known, ", ")))
			}
			tags[kv[0]] = kv[1]
		}
		if v, err = v.Configure(tags); err != nil {
			return fail(stderr, "design", err)
		}
	}
	status := 0
	for i, text := range fs.Args() {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		d, err := designer.PriceDesign(v, text, *size)
		if err != nil {
			fmt.Fprintf(stderr, "anychess design: %s", designFault(err))
			status = 1
			continue
		}
		fmt.Fprint(stdout, describeDesign(d, *size))
	}
	return status
}

// designerOf returns the variant named name, or the first of the catalog
// whose pieces are designed, with its Designer.
func designerOf(name string) (*rules.Variant, face.Designer, error) {
	reg, err := catalog.Default()
	if err != nil {
		return nil, nil, err
	}
	if name == "" {
		v, d, ok := face.FirstDesigner(reg.Variants())
		if !ok {
			return nil, nil, errors.New("no variant has designed pieces")
		}
		return v, d, nil
	}
	v, err := reg.Get(name)
	if err != nil {
		return nil, nil, err
	}
	d, ok := face.DesignerOf(v)
	if !ok {
		return nil, nil, fmt.Errorf("%s has no designed pieces", v.Name())
	}
	return v, d, nil
}

// describeDesign writes what the design command prints for one design.
func describeDesign(d face.Design, size int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "design %s\n", d.Design)
	fmt.Fprintf(&sb, "price %d (exact cost %s, rounded up)\n", d.Price, d.Decimal)
	fmt.Fprintf(&sb, "colour-bound %s\n", yesNo(d.ColorBound))
	if d.Royal {
		sb.WriteString("royal: yes (price x4)\n")
	}
	if d.Relay {
		sb.WriteString("relay: yes (price x2)\n")
	}
	fmt.Fprintf(&sb, "powers %s\n", strings.Join(d.Powers, " "))
	fmt.Fprintf(&sb, "moves from the centre of an empty %dx%d board (* the piece, x move or capture, m move only, c capture only):\n", size, size)
	for _, row := range strings.Split(strings.TrimSuffix(d.Diagram, "\n"), "\n") {
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
func designFault(err error) string {
	var de *face.DesignError
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
