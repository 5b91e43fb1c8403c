package server

import "net/http"

// studyRoutes adds the handlers for studying the variants and their games
// outside play: the pieces' moves for the rules pages, positions and the
// engine's analysis for the analysis board.
func (s *Server) studyRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/variants/{name}/pieces", s.handlePieces)
	m.HandleFunc("GET /api/analysis/position", s.handlePosition)
	m.HandleFunc("GET /api/analysis", s.handleAnalysis)
	m.HandleFunc("GET /api/games/{id}/study", s.handleStudyGame)
	m.HandleFunc("GET /api/games/{id}/blunders", s.handleBlunders)
}
