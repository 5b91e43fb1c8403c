package uci_test

import (
	"context"
	"io"
	"testing"

	"github.com/anychess/anychess/catalog"
	"github.com/anychess/anychess/internal/transcript"
	"github.com/anychess/anychess/protocol/uci"
	"github.com/anychess/anychess/search"
)

// TestTranscripts plays the command files in testdata/*.txt (see package
// internal/transcript for the format).
func TestTranscripts(t *testing.T) {
	transcript.RunAll(t, func(in io.Reader, out io.Writer) error {
		return uci.Run(context.Background(), in, out, catalog.MustDefault(), search.New(16))
	})
}
