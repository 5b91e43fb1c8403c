// Command anychess plays, checks and measures chess variants.
//
// Usage:
//
//	anychess <command> [flags] [arguments]
//
// Run "anychess help" for the list of commands; each command takes -h.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// command is one subcommand of anychess.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"variants", "list the variants and their rules in brief", runVariants},
		{"check", "validate variant files", runCheck},
		{"show", "draw a position", runShow},
		{"moves", "print the legal moves of a position", runMoves},
		{"apply", "play moves and print the resulting position and game state", runApply},
		{"perft", "count the leaf nodes of the move tree, with nodes per second", runPerft},
		{"uci", "run the engine under the UCI protocol on standard input and output", runUCI},
		{"xboard", "run the engine under the XBoard protocol (CECP 2) on standard input and output", runXBoard},
		{"bench", "search a fixed set of positions: node count (the search's signature) and speed", runBench},
		{"play", "play against the engine in the terminal", runPlay},
		{"search", "search a position and print the engine's analysis", runSearch},
		{"match", "play games between engines and report the score and Elo difference", runMatch},
		{"tune", "learn a variant's evaluation weights from self-play games", runTune},
		{"net", "train a network that corrects a variant's evaluation, on the games and scores of an external engine", runNet},
		{"design", "price a piece design of a variant whose pieces are designed, and draw its moves", runDesign},
		{"export", "rewrite game records: plain PGN, or a moderated game as one player saw it", runExport},
		{"verify", "check the dice of finished games against the seed and its commitment", runVerify},
		{"serve", "serve games over HTTP and WebSocket with the web page", runServe},
		{"worker", "serve the engine's searches for servers over NATS", runWorker},
		{"loadtest", "play many scripted games against a server and measure it", runLoadtest},
		{"help", "print this help", nil},
	}
}

// run executes the command line args and returns the exit status: 0 on
// success, 1 when the command failed, 2 for a usage error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		fmt.Fprintln(stdout)
		return demo(stdout, stderr)
	}
	name := args[0]
	for _, c := range commands() {
		if c.name != name {
			continue
		}
		if c.run == nil {
			usage(stdout)
			return 0
		}
		return c.run(args[1:], stdin, stdout, stderr)
	}
	if name == "-h" || name == "-help" || name == "--help" {
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "anychess: unknown command %q\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "anychess plays, checks and measures chess variants.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: anychess <command> [flags] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Every command that works on a position takes -variant NAME (default chess),")
	fmt.Fprintln(w, "-fen FEN (default the start position) and -file FILE (a variant file to load).")
	fmt.Fprintln(w, "Run \"anychess <command> -h\" for a command's flags.")
}

// demo shows what the command does when run without arguments.
func demo(stdout, stderr io.Writer) int {
	fmt.Fprintln(stdout, "A demo: the start of Great Shatranj, its legal moves, and a short game.")
	fmt.Fprintln(stdout)
	if st := runShow([]string{"-variant", "greatshatranj"}, nil, stdout, stderr); st != 0 {
		return st
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "$ anychess apply -variant chess e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7")
	return runApply([]string{"-variant", "chess", "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"}, nil, stdout, stderr)
}
