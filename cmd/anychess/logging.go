package main

import (
	"fmt"
	"io"
	"log/slog"
)

// newLogger returns a structured logger writing to w in format: "text"
// (key=value lines) or "json" (one JSON object a line).
func newLogger(format string, w io.Writer) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("-log %q: want text or json", format)
}
