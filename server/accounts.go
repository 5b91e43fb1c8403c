package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/argon2"

	"github.com/anychess/anychess/server/store"
)

// The password hash: argon2id (RFC 9106) with the parameters OWASP
// recommends for argon2id at 19 MiB: 2 passes, 1 lane, a 16-byte salt and
// a 32-byte key, kept in the PHC string format
// ($argon2id$v=19$m=19456,t=2,p=1$salt$key, base64 without padding).
const (
	argonTime    = 2
	argonMemory  = 19 * 1024 // KiB
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// Account rules.
const (
	// SessionCookie is the name of the session's cookie.
	SessionCookie = "anychess_session"
	// SessionTTL is how long a session lasts after signing in.
	SessionTTL = 30 * 24 * time.Hour
	// MinPassword and MaxPassword bound a password's length in bytes.
	MinPassword = 8
	MaxPassword = 256
	// MaxClaims is the most seats one request may claim.
	MaxClaims = 200
)

var (
	errBadName     = errors.New("a user name is 3 to 20 letters, digits, '_' or '-', starting with a letter")
	errBadPassword = fmt.Errorf("a password is %d to %d bytes", MinPassword, MaxPassword)
	// errBadLogin is the one answer to a failed sign-in, whether the name
	// exists or not.
	errBadLogin = errors.New("wrong user name or password")
)

// canonicalName returns the account key of a user name (its lower case),
// or an error if the name is not one a user may take.
func canonicalName(name string) (string, error) {
	if len(name) < 3 || len(name) > 20 {
		return "", errBadName
	}
	for i, r := range name {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if i == 0 && !letter || !(letter || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return "", errBadName
		}
	}
	return strings.ToLower(name), nil
}

// hashPassword returns the PHC string of password with a fresh salt.
func (a *accounts) hashPassword(password string) string {
	a.hashes.Add(1)
	return newHash(password)
}

// newHash returns the PHC string of password with a fresh salt.
func newHash(password string) string {
	salt := make([]byte, argonSaltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key))
}

// verifyPassword reports whether password matches the PHC string phc,
// with the parameters written in it.
func (a *accounts) verifyPassword(phc, password string) bool {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var version int
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || m > 1<<20 || t == 0 || t > 16 || p == 0 {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[4])
	key, err2 := enc.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(key) == 0 || len(key) > 128 {
		return false
	}
	a.hashes.Add(1)
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1
}

// accounts is the server's side of accounts: throttles and the dummy hash.
type accounts struct {
	people store.People // nil: the store keeps no accounts

	byIP, byName *capBuckets      // sign-in and sign-up attempts
	now          func() time.Time // the throttles' clock: time.Now but in tests

	dummyOnce sync.Once
	dummy     string       // a hash verified for unknown names, so that they take as long
	hashes    atomic.Int64 // argon2 evaluations, for tests
}

func newAccounts(st store.Store) *accounts {
	a := &accounts{
		byIP:   newCapBuckets(1.0/6, 20, 10000),  // 20 at once, then 10 a minute
		byName: newCapBuckets(1.0/30, 10, 10000), // 10 at once, then 2 a minute
		now:    time.Now,
	}
	a.people, _ = st.(store.People)
	return a
}

func (a *accounts) dummyHash() string {
	a.dummyOnce.Do(func() { a.dummy = newHash(randomHex(16)) })
	return a.dummy
}

// capBuckets is a token bucket per key in a map of at most max keys: a
// new key in a full map first forgets the keys whose buckets have filled
// up, then, if still full, an arbitrary one.
type capBuckets struct {
	rate, burst float64
	max         int

	mu sync.Mutex
	m  map[string]*bucket
}

func newCapBuckets(rate, burst float64, max int) *capBuckets {
	return &capBuckets{rate: rate, burst: burst, max: max, m: map[string]*bucket{}}
}

// allow takes a token of key's bucket; false, with the wait for the next
// one, if it has none.
func (c *capBuckets) allow(key string, now time.Time) (bool, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.m[key]
	if b == nil {
		if len(c.m) >= c.max {
			full := time.Duration(c.burst / c.rate * float64(time.Second))
			for k, b := range c.m {
				if now.Sub(b.last) > full {
					delete(c.m, k)
				}
			}
			for k := range c.m {
				if len(c.m) < c.max {
					break
				}
				delete(c.m, k)
			}
		}
		b = &bucket{rate: c.rate, burst: c.burst, tokens: c.burst, last: now}
		c.m[key] = b
	}
	if b.allow(now) {
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / c.rate * float64(time.Second))
}

// size is the keys held.
func (c *capBuckets) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// viaTLS reports whether r came over TLS: to this server, or to a trusted
// proxy that says so in X-Forwarded-Proto.
func (s *Server) viaTLS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if r.Header.Get("X-Forwarded-Proto") != "https" {
		return false
	}
	host := r.RemoteAddr
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		host = h
	}
	a, err := netip.ParseAddr(host)
	return err == nil && s.trusted(a)
}

// session returns the signed-in session of r, or nil.
func (s *Server) session(r *http.Request) *store.Session {
	if s.acc.people == nil {
		return nil
	}
	c, err := r.Cookie(SessionCookie)
	if err != nil || len(c.Value) != 64 {
		return nil
	}
	se, err := s.acc.people.Session(r.Context(), hashToken(c.Value), time.Now())
	if err != nil {
		return nil
	}
	return se
}

// csrf wraps the routes: a POST that carries a session cookie of a live
// session must carry the session's CSRF token in the X-CSRF-Token header
// (or a csrf_token form field), except signing in and up, which make a
// new session; and a POST whose Origin header names another site is
// refused.
func (s *Server) csrf(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
			next.ServeHTTP(w, r)
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			if u, err := url.Parse(o); err != nil || !strings.EqualFold(u.Host, r.Host) {
				writeError(w, http.StatusForbidden, "csrf", errors.New("a request from another site"))
				return
			}
		}
		if r.URL.Path == "/api/login" || r.URL.Path == "/api/signup" {
			next.ServeHTTP(w, r)
			return
		}
		if se := s.session(r); se != nil {
			tok := r.Header.Get("X-CSRF-Token")
			if tok == "" && !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
				tok = r.FormValue("csrf_token")
			}
			if subtle.ConstantTimeCompare([]byte(tok), []byte(se.CSRF)) != 1 {
				writeError(w, http.StatusForbidden, "csrf", errors.New("the request lacks the session's CSRF token (X-CSRF-Token, from GET /api/me)"))
				return
			}
			r = r.WithContext(context.WithValue(r.Context(), sessionKey{}, se))
		}
		next.ServeHTTP(w, r)
	})
}

// sessionKey is the context key of a POST's checked session.
type sessionKey struct{}

// user returns the account name r acts for: the session checked by csrf
// on a POST, else the session of its cookie; "" anonymous.
func (s *Server) user(r *http.Request) (string, *store.Session) {
	if se, ok := r.Context().Value(sessionKey{}).(*store.Session); ok {
		return se.User, se
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return "", nil // a POST's session is the one csrf checked
	}
	if se := s.session(r); se != nil {
		return se.User, se
	}
	return "", nil
}

// readJSON decodes a JSON request body strictly into v; false (answered)
// if the body is not JSON or does not decode.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "unsupported_media_type", errors.New("send a Content-Type: application/json body"))
		return false
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r.Body); err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", err)
		return false
	}
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", err)
		return false
	}
	return true
}

// noAccounts answers 501 if the store keeps no accounts.
func (s *Server) noAccounts(w http.ResponseWriter) bool {
	if s.acc.people == nil {
		writeError(w, http.StatusNotImplemented, "no_accounts", errors.New("this server's store keeps no accounts"))
		return true
	}
	return false
}

// Credentials is the body of POST /api/signup and /api/login.
type Credentials struct {
	Name     string      `json:"name"`
	Password string      `json:"password"`
	Claim    []SeatClaim `json:"claim,omitempty"` // sign-up only: anonymous seats to claim
}

// SeatClaim names a seat of a game by its token, as the browser that
// played it anonymously holds it.
type SeatClaim struct {
	Game  string `json:"game"`
	Seat  string `json:"seat"`
	Token string `json:"token"`
}

// Me is the answer of GET /api/me, sign-up and sign-in.
type Me struct {
	User    string      `json:"user,omitempty"`    // the canonical name; absent when anonymous
	Display string      `json:"display,omitempty"` // the name as signed up
	CSRF    string      `json:"csrf,omitempty"`    // the token state-changing requests must send in X-CSRF-Token
	Claimed *ClaimReply `json:"claimed,omitempty"`
}

// ClaimReply says which seats a claim took.
type ClaimReply struct {
	Claimed []string `json:"claimed"` // game ids
	Refused []string `json:"refused"` // game ids whose seat was not taken (a wrong token, a seat with a player)
}

// throttle takes a sign-in or sign-up attempt from r's client and, for a
// sign-in, of the name; false (answered 429) when either is spent.
func (s *Server) throttle(w http.ResponseWriter, r *http.Request, name string) bool {
	now := s.acc.now()
	ok, wait := s.acc.byIP.allow(s.clientKey(r), now)
	if ok && name != "" {
		ok, wait = s.acc.byName.allow(name, now)
	}
	if !ok {
		tooMany(w, wait, errors.New("too many attempts; wait a little"))
		return false
	}
	return true
}

// startSession signs user in: a new session, its cookie, and the answer.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, u *store.User, status int, claimed *ClaimReply) {
	id := randomHex(32)
	now := time.Now().UTC()
	se := &store.Session{IDHash: hashToken(id), User: u.Name, CSRF: randomHex(32), Created: now, Expires: now.Add(SessionTTL)}
	if err := s.acc.people.CreateSession(r.Context(), se); err != nil {
		s.logf("server: session: %v", err)
		writeError(w, http.StatusInternalServerError, "internal", errors.New("the session could not be stored"))
		return
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: id, Path: "/", MaxAge: int(SessionTTL / time.Second),
		HttpOnly: true, Secure: s.viaTLS(r), SameSite: http.SameSiteLaxMode})
	writeJSON(w, status, Me{User: u.Name, Display: u.Display, CSRF: se.CSRF, Claimed: claimed})
}

func (s *Server) handleSignup(w http.ResponseWriter, r *http.Request) {
	if s.noAccounts(w) {
		return
	}
	var c Credentials
	if !readJSON(w, r, &c) {
		return
	}
	name, err := canonicalName(c.Name)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_name", err)
		return
	}
	if len(c.Password) < MinPassword || len(c.Password) > MaxPassword {
		writeError(w, http.StatusBadRequest, "bad_password", errBadPassword)
		return
	}
	if len(c.Claim) > MaxClaims {
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Errorf("at most %d seats at once", MaxClaims))
		return
	}
	if !s.throttle(w, r, "") {
		return
	}
	u := &store.User{Name: name, Display: c.Name, Hash: s.acc.hashPassword(c.Password), Created: time.Now().UTC()}
	if err := s.acc.people.CreateUser(r.Context(), u); err != nil {
		if errors.Is(err, store.ErrTaken) {
			writeError(w, http.StatusConflict, "name_taken", errors.New("that user name is taken"))
			return
		}
		s.logf("server: sign-up: %v", err)
		writeError(w, http.StatusInternalServerError, "internal", errors.New("the account could not be stored"))
		return
	}
	var claimed *ClaimReply
	if len(c.Claim) > 0 {
		claimed = s.claim(r.Context(), name, c.Claim)
	}
	s.startSession(w, r, u, http.StatusCreated, claimed)
}

func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	if s.noAccounts(w) {
		return
	}
	var c Credentials
	if !readJSON(w, r, &c) {
		return
	}
	// A name that no account could have is looked up all the same (it is
	// simply not found), so that every failure is the same failure.
	name := strings.ToLower(c.Name)
	if len(name) > 64 || len(c.Password) > MaxPassword {
		name, c.Password = "", ""
	}
	if !s.throttle(w, r, name) {
		return
	}
	u, err := s.acc.people.User(r.Context(), name)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.logf("server: sign-in: %v", err)
		writeError(w, http.StatusInternalServerError, "internal", errors.New("try again"))
		return
	}
	hash := s.acc.dummyHash() // made by the first sign-in, whether its name exists or not
	if u != nil {
		hash = u.Hash
	}
	if ok := s.acc.verifyPassword(hash, c.Password); !ok || u == nil {
		writeError(w, http.StatusUnauthorized, "bad_login", errBadLogin)
		return
	}
	s.startSession(w, r, u, http.StatusOK, nil)
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	if s.noAccounts(w) {
		return
	}
	if _, se := s.user(r); se != nil {
		if err := s.acc.people.DeleteSession(r.Context(), se.IDHash); err != nil {
			s.logf("server: sign-out: %v", err)
		}
	}
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: s.viaTLS(r), SameSite: http.SameSiteLaxMode})
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	name, se := s.user(r)
	if se == nil {
		writeJSON(w, http.StatusOK, Me{})
		return
	}
	me := Me{User: name, CSRF: se.CSRF}
	if u, err := s.acc.people.User(r.Context(), name); err == nil {
		me.Display = u.Display
	}
	writeJSON(w, http.StatusOK, me)
}

// handleClaim claims anonymous seats for the signed-in user.
func (s *Server) handleClaim(w http.ResponseWriter, r *http.Request) {
	if s.noAccounts(w) {
		return
	}
	name, _ := s.user(r)
	if name == "" {
		writeError(w, http.StatusUnauthorized, "not_signed_in", errors.New("sign in first"))
		return
	}
	var body struct {
		Claim []SeatClaim `json:"claim"`
	}
	if !readJSON(w, r, &body) {
		return
	}
	if len(body.Claim) > MaxClaims {
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Errorf("at most %d seats at once", MaxClaims))
		return
	}
	writeJSON(w, http.StatusOK, s.claim(r.Context(), name, body.Claim))
}

// claim gives user the seats whose tokens the claims show. A game in
// memory keeps its record as it was loaded; the claim shows in the
// store's lists (profiles) at once and in the game once it is loaded again.
func (s *Server) claim(ctx context.Context, user string, cs []SeatClaim) *ClaimReply {
	out := &ClaimReply{Claimed: []string{}, Refused: []string{}}
	for _, c := range cs {
		seat := seatIndex(c.Seat)
		if seat < 0 || len(c.Token) != 64 || len(c.Game) > 64 {
			out.Refused = append(out.Refused, c.Game)
			continue
		}
		if err := s.acc.people.Claim(ctx, user, c.Game, seat, hashToken(c.Token)); err != nil {
			if !errors.Is(err, store.ErrNotFound) && !errors.Is(err, store.ErrConflict) {
				s.logf("server: claim %s: %v", c.Game, err)
			}
			out.Refused = append(out.Refused, c.Game)
			continue
		}
		out.Claimed = append(out.Claimed, c.Game)
	}
	return out
}
