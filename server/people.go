package server

import "net/http"

// peopleRoutes sets up the routes of accounts, seeks, profiles and
// leaderboards (docs/accounts.md).
func (s *Server) peopleRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /api/signup", s.handleSignup)
	m.HandleFunc("POST /api/login", s.handleLogin)
	m.HandleFunc("POST /api/logout", s.handleLogout)
	m.HandleFunc("GET /api/me", s.handleMe)
	m.HandleFunc("POST /api/me/claim", s.handleClaim)
}

// lobby holds the seeks (seeks.go).
type lobby struct{}

func newLobby(s *Server) *lobby { return &lobby{} }
