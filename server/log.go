package server

import (
	"fmt"
	"log/slog"
	"strings"
)

// logger returns the server's structured logger: Config.Logger with, on a
// node of a cluster, the node's name (its default one too) as the
// attribute node.
func (s *Server) logger() *slog.Logger {
	l := s.cfg.Logger
	if l == nil {
		l = slog.Default()
	}
	node := s.Node()
	if c := s.cfg.Cluster; node == "" && c != nil {
		node = c.Node
	}
	if node != "" {
		l = l.With("node", node)
	}
	return l
}

// logf logs what went wrong while the server carried on: through
// Config.Logf when it is set, else as a warning record of the server's
// logger. A line about a game ("game %s: ..." with the game's id first)
// carries the id as the attribute game, and the rest as its message.
func (s *Server) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf(format, args...)
		return
	}
	l := s.logger()
	if rest, ok := strings.CutPrefix(format, "game %s: "); ok && len(args) > 0 {
		if id, ok := args[0].(string); ok {
			l.Warn(fmt.Sprintf(rest, args[1:]...), "game", id)
			return
		}
	}
	l.Warn(fmt.Sprintf(format, args...))
}
