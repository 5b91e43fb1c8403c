package server

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anychess/anychess/server/store"
)

// browser is a client with a cookie jar, the session's CSRF token once
// signed in, and optionally an address it claims through a trusted proxy.
type browser struct {
	t    *testing.T
	ts   *testServer
	c    *http.Client
	csrf string
	ip   string
}

func newBrowser(t *testing.T, ts *testServer) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, ts: ts, c: &http.Client{Jar: jar}}
}

// do sends a request with body (JSON-encoded unless nil) and decodes the
// answer into out (if not nil); it returns the response.
func (b *browser) do(method, path string, body, out any) *http.Response {
	b.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, b.ts.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if b.csrf != "" {
		req.Header.Set("X-CSRF-Token", b.csrf)
	}
	if b.ip != "" {
		req.Header.Set("X-Forwarded-For", b.ip)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(data))
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			b.t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
	return resp
}

// signup signs a new user up and keeps the session's CSRF token.
func (b *browser) signup(name, password string) Me {
	b.t.Helper()
	var me Me
	if resp := b.do("POST", "/api/signup", map[string]any{"name": name, "password": password}, &me); resp.StatusCode != http.StatusCreated {
		b.t.Fatalf("sign-up %s: %d", name, resp.StatusCode)
	}
	b.csrf = me.CSRF
	return me
}

func TestSignupLogoutLogin(t *testing.T) {
	ts := newTestServer(t, "", nil)
	b := newBrowser(t, ts)
	resp := b.do("POST", "/api/signup", map[string]any{"name": "Ann_1", "password": "correct horse"}, nil)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("sign-up: %d", resp.StatusCode)
	}
	var me Me
	json.NewDecoder(resp.Body).Decode(&me)
	if me.User != "ann_1" || me.Display != "Ann_1" || len(me.CSRF) != 64 {
		t.Fatalf("sign-up answered %+v", me)
	}
	cookie := sessionCookie(t, resp)
	if !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Secure || cookie.Path != "/" {
		t.Errorf("cookie over plain HTTP: %+v", cookie)
	}
	b.csrf = me.CSRF
	var got Me
	b.do("GET", "/api/me", nil, &got)
	if got.User != "ann_1" || got.CSRF != me.CSRF {
		t.Errorf("me = %+v", got)
	}
	if resp := b.do("POST", "/api/logout", nil, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("log-out: %d", resp.StatusCode)
	}
	got = Me{}
	b.do("GET", "/api/me", nil, &got)
	if got.User != "" || got.CSRF != "" {
		t.Errorf("after log-out: me = %+v", got)
	}
	b.csrf = ""
	tests := []struct {
		name, user, password string
		status               int
	}{
		{"wrong password", "ann_1", "wrong horse", http.StatusUnauthorized},
		{"unknown name", "bob", "correct horse", http.StatusUnauthorized},
		{"any case", "ANN_1", "correct horse", http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var me Me
			if resp := b.do("POST", "/api/login", map[string]any{"name": tc.user, "password": tc.password}, &me); resp.StatusCode != tc.status {
				t.Fatalf("log-in: %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status == http.StatusOK && (me.User != "ann_1" || me.CSRF == "") {
				t.Errorf("log-in answered %+v", me)
			}
		})
	}
	got = Me{}
	b.do("GET", "/api/me", nil, &got)
	if got.User != "ann_1" {
		t.Errorf("after log-in: me = %+v", got)
	}
}

func TestSignupRefusals(t *testing.T) {
	ts := newTestServer(t, "", nil)
	newBrowser(t, ts).signup("taken", "a good password")
	tests := []struct {
		name   string
		body   any
		ctype  string
		status int
		code   string
	}{
		{"short name", map[string]any{"name": "ab", "password": "a good password"}, "", 400, "bad_name"},
		{"name with a space", map[string]any{"name": "a b c", "password": "a good password"}, "", 400, "bad_name"},
		{"name starting with a digit", map[string]any{"name": "1abc", "password": "a good password"}, "", 400, "bad_name"},
		{"short password", map[string]any{"name": "carol", "password": "short"}, "", 400, "bad_password"},
		{"taken in any case", map[string]any{"name": "TAKEN", "password": "a good password"}, "", 409, "name_taken"},
		{"unknown field", map[string]any{"name": "carol", "password": "a good password", "admin": true}, "", 400, "bad_request"},
		{"a form", "name=carol&password=xxxxxxxxxx", "application/x-www-form-urlencoded", 415, "unsupported_media_type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if s, ok := tc.body.(string); ok {
				body = strings.NewReader(s)
			} else {
				data, _ := json.Marshal(tc.body)
				body = bytes.NewReader(data)
			}
			ct := tc.ctype
			if ct == "" {
				ct = "application/json"
			}
			resp, err := http.Post(ts.URL+"/api/signup", ct, body)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var e apiError
			json.NewDecoder(resp.Body).Decode(&e)
			if resp.StatusCode != tc.status || e.Error.Code != tc.code {
				t.Errorf("%d %s, want %d %s", resp.StatusCode, e.Error.Code, tc.status, tc.code)
			}
		})
	}
}

func sessionCookie(t *testing.T, resp *http.Response) *http.Cookie {
	t.Helper()
	for _, c := range resp.Cookies() {
		if c.Name == SessionCookie {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", SessionCookie, resp.Header.Values("Set-Cookie"))
	return nil
}

// TestSessionCookieSecure checks that the cookie is Secure when the request
// came over TLS, to the server or (said by a trusted proxy) to its proxy,
// and not when an untrusted client says so.
func TestSessionCookieSecure(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) {
		c.Limits.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.1/32")}
	})
	tests := []struct {
		name   string
		tls    bool
		remote string
		proto  string
		secure bool
	}{
		{"tls", true, "192.0.2.1:1000", "", true},
		{"plain", false, "192.0.2.1:1000", "", false},
		{"trusted proxy over tls", false, "10.0.0.1:1000", "https", true},
		{"untrusted header", false, "192.0.2.1:1000", "https", false},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := fmt.Sprintf(`{"name":"user%d","password":"a good password"}`, i)
			req := httptest.NewRequest("POST", "/api/signup", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.RemoteAddr = tc.remote
			if tc.tls {
				req.TLS = &tls.ConnectionState{}
			}
			if tc.proto != "" {
				req.Header.Set("X-Forwarded-Proto", tc.proto)
			}
			rec := httptest.NewRecorder()
			ts.Handler().ServeHTTP(rec, req)
			resp := rec.Result()
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("sign-up: %d", resp.StatusCode)
			}
			c := sessionCookie(t, resp)
			if c.Secure != tc.secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
				t.Errorf("cookie %+v, want Secure %v, HttpOnly, SameSite=Lax", c, tc.secure)
			}
		})
	}
}

// TestLoginFailuresAlike checks that a wrong password and an unknown user
// name get the same answer, byte for byte, after the same work: one
// argon2id evaluation each (the unknown name's against a dummy hash).
func TestLoginFailuresAlike(t *testing.T) {
	ts := newTestServer(t, "", nil)
	newBrowser(t, ts).signup("ann", "the right password")
	attempt := func(name string) (int, string, int64, time.Duration) {
		b := newBrowser(t, ts)
		before := ts.acc.hashes.Load()
		t0 := time.Now()
		resp := b.do("POST", "/api/login", map[string]any{"name": name, "password": "a wrong password"}, nil)
		d := time.Since(t0)
		body, _ := io.ReadAll(resp.Body)
		hdr := []string{}
		for k, v := range resp.Header {
			if k != "Date" {
				hdr = append(hdr, k+": "+strings.Join(v, ","))
			}
		}
		sort.Strings(hdr)
		return resp.StatusCode, strings.Join(hdr, "\n") + "\n" + string(body), ts.acc.hashes.Load() - before, d
	}
	var times [2][]time.Duration
	for i := range 5 {
		s1, a1, h1, d1 := attempt("ann")
		s2, a2, h2, d2 := attempt(fmt.Sprintf("nobody%d", i))
		if s1 != http.StatusUnauthorized || s1 != s2 || a1 != a2 {
			t.Fatalf("wrong password: %d\n%s\nunknown name: %d\n%s", s1, a1, s2, a2)
		}
		if h1 != 1 || h2 != 1 {
			t.Fatalf("argon2id evaluations: wrong password %d, unknown name %d; want 1 each", h1, h2)
		}
		times[0], times[1] = append(times[0], d1), append(times[1], d2)
	}
	for i := range times {
		slices.Sort(times[i])
	}
	t.Logf("median time: wrong password %v, unknown name %v", times[0][2], times[1][2])
}

// TestLoginThrottled checks that 100 failed sign-ins are throttled, from
// one address (to many names) and to one name (from many addresses), that
// the throttle answers alike whether the name exists, and that a refused
// client is let in again once its bucket has refilled. The throttles' clock
// stands still while the 100 are sent (each costs a password hash, seconds
// on a loaded machine, in which a bucket would refill a token).
func TestLoginThrottled(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) {
		c.Limits.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}
	})
	var mu sync.Mutex
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ts.acc.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return clock
	}
	newBrowser(t, ts).signup("ann", "the right password")
	tests := []struct {
		name    string
		user    func(i int) string
		ip      func(i int) string
		maxFail int
	}{
		{"one address", func(i int) string { return fmt.Sprintf("name%d", i) }, func(int) string { return "192.0.2.7" }, 20},
		{"one name", func(int) string { return "ann" }, func(i int) string { return fmt.Sprintf("198.51.100.%d", i) }, 10},
		{"one unknown name", func(int) string { return "nobody" }, func(i int) string { return fmt.Sprintf("203.0.113.%d", i) }, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			counts := map[int]int{}
			for i := range 100 {
				b := newBrowser(t, ts)
				b.ip = tc.ip(i)
				resp := b.do("POST", "/api/login", map[string]any{"name": tc.user(i), "password": "a wrong password"}, nil)
				counts[resp.StatusCode]++
				if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
					t.Error("429 without Retry-After")
				}
			}
			if counts[http.StatusUnauthorized] != tc.maxFail || counts[http.StatusTooManyRequests] != 100-tc.maxFail {
				t.Errorf("answers %v: want %d refusals then 429s", counts, tc.maxFail)
			}
			// A minute later both buckets hold a token again (the name's
			// refills one in 30 s, the address's one in 6 s).
			mu.Lock()
			clock = clock.Add(time.Minute)
			mu.Unlock()
			b := newBrowser(t, ts)
			b.ip = tc.ip(100)
			if resp := b.do("POST", "/api/login", map[string]any{"name": tc.user(100), "password": "a wrong password"}, nil); resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("a minute later: status %d, want %d", resp.StatusCode, http.StatusUnauthorized)
			}
		})
	}
}

func TestCapBucketsBounded(t *testing.T) {
	c := newCapBuckets(1, 1, 50)
	now := time.Now()
	for i := range 1000 {
		c.allow(fmt.Sprint(i), now)
		if c.size() > 50 {
			t.Fatalf("%d keys held, at most 50 wanted", c.size())
		}
	}
	if ok, _ := c.allow("999", now); ok {
		t.Error("a spent key allowed again at once")
	}
}

// TestCSRF checks that a POST from a session must carry its CSRF token,
// and that no POST may come from another site.
func TestCSRF(t *testing.T) {
	ts := newTestServer(t, "", nil)
	b := newBrowser(t, ts)
	me := b.signup("ann", "the right password")
	claim := map[string]any{"claim": []any{}}
	tests := []struct {
		name   string
		token  string
		origin string
		path   string
		status int
	}{
		{"no token", "", "", "/api/me/claim", http.StatusForbidden},
		{"wrong token", strings.Repeat("0", 64), "", "/api/me/claim", http.StatusForbidden},
		{"no token to create a game", "", "", "/api/games", http.StatusForbidden},
		{"no token to sign out", "", "", "/api/logout", http.StatusForbidden},
		{"another site", me.CSRF, "https://evil.example", "/api/me/claim", http.StatusForbidden},
		{"the token", me.CSRF, "", "/api/me/claim", http.StatusOK},
		{"the token, same site", me.CSRF, ts.URL, "/api/me/claim", http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b.csrf = tc.token
			req, _ := http.NewRequest("POST", ts.URL+tc.path, strings.NewReader(string(mustJSON(claim))))
			req.Header.Set("Content-Type", "application/json")
			if tc.token != "" {
				req.Header.Set("X-CSRF-Token", tc.token)
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			resp, err := b.c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("%d, want %d", resp.StatusCode, tc.status)
			}
		})
	}
	var got Me
	b.do("GET", "/api/me", nil, &got)
	if got.User != "ann" {
		t.Error("the refused sign-out signed out")
	}
}

// TestClaimAtSignup plays an anonymous game, then signs up in the same
// browser (which holds the seat's token) claiming it: the game is the
// user's, once; a wrong token claims nothing.
func TestClaimAtSignup(t *testing.T) {
	ts := newTestServer(t, "", nil)
	id, w, _, tokens := humanGame(t, ts, map[string]any{"variant": "chess"})
	if f := w.do(map[string]any{"t": "resign"}); f.T != "ack" {
		t.Fatalf("resign: %s %s", f.Code, f.Message)
	}
	b := newBrowser(t, ts)
	var me Me
	resp := b.do("POST", "/api/signup", map[string]any{"name": "ann", "password": "the right password",
		"claim": []map[string]string{{"game": id, "seat": "white", "token": tokens[0]}, {"game": id, "seat": "black", "token": tokens[0]}}}, &me)
	if resp.StatusCode != http.StatusCreated || me.Claimed == nil || !slices.Equal(me.Claimed.Claimed, []string{id}) || !slices.Equal(me.Claimed.Refused, []string{id}) {
		t.Fatalf("sign-up with claims: %d %+v", resp.StatusCode, me.Claimed)
	}
	b.csrf = me.CSRF
	var again ClaimReply
	b.do("POST", "/api/me/claim", map[string]any{"claim": []map[string]string{{"game": id, "seat": "white", "token": tokens[0]}}}, &again)
	if len(again.Claimed) != 0 || len(again.Refused) != 1 {
		t.Errorf("claimed twice: %+v", again)
	}
	gs, err := ts.store.(store.People).Games(ctxT(t), store.GamesQuery{User: "ann"})
	if err != nil || len(gs) != 1 || gs[0].Game != id || gs[0].Seat != 0 || gs[0].Outcome != "loss" || gs[0].Rated {
		t.Errorf("ann's games: %+v, %v", gs, err)
	}
}
