package server

import (
	"fmt"
	"log/slog"
	"strings"
)

// logger returns the server's structured logger: Config.Logger with, on a
// node of a cluster, the node's name as the attribute node. It is settled
// at its first use, once New has filled in the configuration.
func (s *Server) logger() *slog.Logger {
	s.logOnce.Do(func() {
		l := s.cfg.Logger
		if l == nil {
			l = slog.Default()
		}
		if c := s.cfg.Cluster; c != nil && c.Node != "" {
			l = l.With("node", c.Node)
		}
		s.log = l
	})
	return s.log
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
