package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/nats-io/nats.go"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/enginebus"
	"github.com/anychess/anychess/search"
)

func runWorker(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return worker(ctx, args, stdout, stderr)
}

// worker serves engine searches from NATS until ctx is done, then
// finishes the searches it has taken.
func worker(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("worker", "", stderr)
	url := fs.String("nats", "", "the NATS server's URL, e.g. nats://127.0.0.1:4222 (required)")
	engines := fs.Int("engines", search.CPUs(), "searches at once (each one thread)")
	hash := fs.Int("hash", 16, "each engine's transposition table in MB")
	files := fs.String("file", "", "variant files to offer besides the built-in ones, as the servers have them: a file, a directory of *.toml files, or a list separated by ':'")
	logFormat := fs.String("log", "text", "format of the log on standard error: text (key=value lines) or json (one object a line)")
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	logger, err := newLogger(*logFormat, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "anychess worker: %v\n", err)
		return 2
	}
	if *url == "" {
		fmt.Fprintln(stderr, "anychess worker: -nats URL is required")
		return 2
	}
	if *engines < 1 || *engines > 4*search.CPUs() {
		fmt.Fprintf(stderr, "anychess worker: -engines %d: want 1 to %d\n", *engines, 4*search.CPUs())
		return 2
	}
	if most := search.MaxHashMB(); *hash < 1 || *hash > most {
		fmt.Fprintf(stderr, "anychess worker: -hash %d: want 1 to %d MB\n", *hash, most)
		return 2
	}
	reg, err := catalog.Default()
	if err != nil {
		return fail(stderr, "worker", err)
	}
	if *files != "" {
		if _, err := reg.LoadPath(*files); err != nil {
			return fail(stderr, "worker", err)
		}
	}
	nc, err := nats.Connect(*url, nats.Name("anychess worker"), nats.MaxReconnects(-1))
	if err != nil {
		return fail(stderr, "worker", fmt.Errorf("NATS %s: %w", *url, err))
	}
	defer nc.Close()
	w := &enginebus.Worker{Registry: reg, Engines: *engines, HashMB: *hash,
		Logf: func(format string, args ...any) { logger.Warn(fmt.Sprintf(format, args...)) }}
	fmt.Fprintf(stdout, "anychess worker: %d engines serving %s on %s\n", *engines, enginebus.Subject, nc.ConnectedUrlRedacted())
	if err := w.Serve(ctx, nc); err != nil {
		return fail(stderr, "worker", err)
	}
	fmt.Fprintf(stdout, "anychess worker: stopped; searches answered: %d\n", w.Served())
	return 0
}
