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
	m.HandleFunc("GET /api/lobby", s.handleLobby)
	m.HandleFunc("GET /api/seeks", s.handleSeeks)
	m.HandleFunc("POST /api/seeks", s.handlePostSeek)
	m.HandleFunc("POST /api/seeks/quick", s.handleQuick)
	m.HandleFunc("GET /api/seeks/quick", s.handleQuickControls)
	m.HandleFunc("POST /api/seeks/{id}/accept", s.handleAccept)
	m.HandleFunc("POST /api/seeks/{id}/cancel", s.handleCancel)
	m.HandleFunc("GET /api/engine/levels", s.handleLevels)
}
