package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/anychess/anychess/rating"
	"github.com/anychess/anychess/server/store"
)

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
	m.HandleFunc("GET /api/users/{name}", s.handleProfile)
	m.HandleFunc("GET /api/users/{name}/games", s.handleUserGames)
	m.HandleFunc("GET /api/leaderboard/{variant}", s.handleLeaderboard)
}

// PlayerInfo is an account playing a game: its name and its rating in the
// game's variant and time class now (a new player's if it has none).
type PlayerInfo struct {
	User        string `json:"user"`
	Rating      int    `json:"rating,omitempty"`
	Provisional bool   `json:"provisional,omitempty"`
}

func playerInfo(user string) *PlayerInfo {
	if user == "" {
		return nil
	}
	return &PlayerInfo{User: user}
}

// addRatings fills in the ratings of a game's players.
func (s *Server) addRatings(ctx context.Context, sum *Summary) {
	class := rating.ClassOf(time.Duration(sum.InitialMS)*time.Millisecond, time.Duration(sum.IncMS)*time.Millisecond)
	for _, p := range []*PlayerInfo{sum.White, sum.Black} {
		if p == nil {
			continue
		}
		r, err := s.ratingOf(ctx, p.User, sum.Variant, class)
		if err != nil {
			s.logf("server: rating of %s: %v", p.User, err)
			continue
		}
		p.Rating, p.Provisional = int(math.Round(r.R)), r.Provisional()
	}
}

// RatingInfo is a rating as profiles and leaderboards show it.
type RatingInfo struct {
	User        string       `json:"user,omitempty"`
	Variant     string       `json:"variant"`
	Class       rating.Class `json:"class"`
	Rating      int          `json:"rating"`
	RD          int          `json:"rd"`
	Provisional bool         `json:"provisional"`
	Games       int          `json:"games"`
}

func ratingInfo(r store.Rating, withUser bool) RatingInfo {
	ri := RatingInfo{Variant: r.Variant, Class: r.Class, Rating: int(math.Round(r.R)), RD: int(math.Round(r.RD)),
		Provisional: r.Provisional(), Games: r.Games}
	if withUser {
		ri.User = r.User
	}
	return ri
}

// HistoryPoint is one point of a rating graph.
type HistoryPoint struct {
	Class  rating.Class `json:"class"`
	At     time.Time    `json:"at"`
	Rating int          `json:"rating"`
	RD     int          `json:"rd"`
	Game   string       `json:"game"`
}

// Profile is the answer of GET /api/users/{name}.
type Profile struct {
	User    string                    `json:"user"`
	Display string                    `json:"display"`
	Created time.Time                 `json:"created"`
	Ratings []RatingInfo              `json:"ratings"`
	History map[string][]HistoryPoint `json:"history"` // per variant, oldest first
}

// maxHistory is the most rating points a profile shows (the newest).
const maxHistory = 2000

func (s *Server) handleProfile(w http.ResponseWriter, r *http.Request) {
	if s.noAccounts(w) {
		return
	}
	ctx := r.Context()
	u, err := s.acc.people.User(ctx, strings.ToLower(r.PathValue("name")))
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not_found", errors.New("no such user"))
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err)
		return
	}
	rs, err := s.acc.people.Ratings(ctx, u.Name)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err)
		return
	}
	hist, err := s.acc.people.History(ctx, u.Name, maxHistory)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err)
		return
	}
	p := Profile{User: u.Name, Display: u.Display, Created: u.Created, Ratings: []RatingInfo{}, History: map[string][]HistoryPoint{}}
	for _, r := range rs {
		p.Ratings = append(p.Ratings, ratingInfo(r, false))
	}
	for _, h := range hist {
		p.History[h.Variant] = append(p.History[h.Variant], HistoryPoint{Class: h.Class, At: h.At,
			Rating: int(math.Round(h.R)), RD: int(math.Round(h.RD)), Game: h.Game})
	}
	writeJSON(w, http.StatusOK, p)
}

// GameEntry is one game of a user's list.
type GameEntry struct {
	Game     string       `json:"game"`
	Seat     string       `json:"seat"`
	Variant  string       `json:"variant"`
	Created  time.Time    `json:"created"`
	Opponent string       `json:"opponent,omitempty"` // an account, "engine:N", or absent for an anonymous player
	Rated    bool         `json:"rated"`
	Class    rating.Class `json:"class"`
	Outcome  string       `json:"outcome"` // win, loss, draw, aborted; "" while played
	Result   string       `json:"result"`
	Replay   string       `json:"replay"`   // the page's path to watch or replay it
	Analysis string       `json:"analysis"` // the page's path to analyse it
}

// GamesPage is the answer of GET /api/users/{name}/games.
type GamesPage struct {
	Games []GameEntry `json:"games"`
	Next  string      `json:"next,omitempty"` // the before of the next page; absent on the last
}

func (s *Server) handleUserGames(w http.ResponseWriter, r *http.Request) {
	if s.noAccounts(w) {
		return
	}
	q := r.URL.Query()
	gq := store.GamesQuery{User: strings.ToLower(r.PathValue("name")), Variant: q.Get("variant"), Outcome: q.Get("result"), Before: q.Get("before"), Limit: 20}
	if gq.Variant != "" {
		v, err := s.reg.Get(gq.Variant)
		if err != nil {
			writeError(w, http.StatusBadRequest, "unknown_variant", err)
			return
		}
		gq.Variant = v.Name()
	}
	switch gq.Outcome {
	case "", "win", "loss", "draw", "aborted":
	default:
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Errorf("result %q: want win, loss, draw or aborted", gq.Outcome))
		return
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 100 {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Errorf("limit %q: want 1..100", l))
			return
		}
		gq.Limit = n
	}
	games, err := s.acc.people.Games(r.Context(), gq)
	if errors.Is(err, store.ErrBadCursor) {
		writeError(w, http.StatusBadRequest, "bad_request", err)
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", err)
		return
	}
	page := GamesPage{Games: []GameEntry{}}
	for _, g := range games {
		page.Games = append(page.Games, GameEntry{Game: g.Game, Seat: seatName(g.Seat), Variant: g.Variant, Created: g.Created,
			Opponent: g.Opponent, Rated: g.Rated, Class: g.Class, Outcome: g.Outcome, Result: g.Result,
			Replay: "/#/game/" + g.Game, Analysis: "/#/analysis/game/" + g.Game})
	}
	if len(games) == gq.Limit {
		page.Next = games[len(games)-1].Cursor()
	}
	writeJSON(w, http.StatusOK, page)
}

// Leaderboard is the answer of GET /api/leaderboard/{variant}: the best
// established ratings of each time class.
type Leaderboard struct {
	Variant string                        `json:"variant"`
	Classes map[rating.Class][]RatingInfo `json:"classes"`
}

func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	if s.noAccounts(w) {
		return
	}
	v, err := s.reg.Get(r.PathValue("variant"))
	if err != nil {
		writeError(w, http.StatusNotFound, "unknown_variant", err)
		return
	}
	classes := rating.Classes
	if c := r.URL.Query().Get("class"); c != "" {
		cl, err := rating.ParseClass(c)
		if err != nil {
			writeError(w, http.StatusBadRequest, "bad_request", err)
			return
		}
		classes = []rating.Class{cl}
	}
	out := Leaderboard{Variant: v.Name(), Classes: map[rating.Class][]RatingInfo{}}
	for _, c := range classes {
		rs, err := s.acc.people.Leaderboard(r.Context(), v.Name(), c, 50)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "internal", err)
			return
		}
		list := []RatingInfo{}
		for _, r := range rs {
			list = append(list, ratingInfo(r, true))
		}
		out.Classes[c] = list
	}
	writeJSON(w, http.StatusOK, out)
}

// createBy creates a game as POST /api/games asks, for the request's
// client; a signed-in creator plays its seat as its account (the other
// seat stays anonymous until claimed, and the game is not rated).
func (s *Server) createBy(r *http.Request, req CreateRequest) (*CreateResponse, error) {
	g, seat, tokens, err := s.prepare(r.Context(), req)
	if err != nil {
		return nil, err
	}
	if user, _ := s.user(r); user != "" {
		g.Users[seat] = user
	}
	return s.createPrepared(r.Context(), g, seat, tokens, s.clientKey(r))
}
