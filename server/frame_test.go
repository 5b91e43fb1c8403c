package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/anychess/anychess/server/loadtest"
)

// TestParseFrameStrict: a frame is one JSON object whose keys are the
// protocol's, spelt exactly, each once, with nothing after it.
func TestParseFrameStrict(t *testing.T) {
	tests := []struct {
		frame string
		ok    bool
	}{
		{`{"t":"ping"}`, true},
		{` {"t":"ping","id":3} `, true},
		{`{"t":"move","move":"e2e4","v":0}`, true},
		{`{"T":"ping"}`, false},
		{`{"t":"ping","ID":3}`, false},
		{`{"t":"move","Move":"e2e4"}`, false},
		{`{"t":"ping","t":"resign"}`, false},
		{`{"t":"ping"}}`, false},
		{`{"t":"ping"}]`, false},
		{`{"t":"ping"} x`, false},
		{`{"t":"ping"} {}`, false},
		{`{"t":"ping"}"`, false},
		{`"t"`, false},
		{`null`, false},
	}
	for _, tc := range tests {
		m, werr := parseFrame([]byte(tc.frame))
		if (werr == nil) != tc.ok {
			t.Errorf("%s: %+v, want ok %v", tc.frame, werr, tc.ok)
		}
		if werr != nil && werr.code != "bad_frame" {
			t.Errorf("%s: code %s, want bad_frame", tc.frame, werr.code)
		}
		if tc.ok && m.T != "ping" && m.T != "move" {
			t.Errorf("%s: kind %q", tc.frame, m.T)
		}
	}
}

// TestRateLimitedID: a frame refused by the rate limit is answered with
// its own id, so the client knows which frame was dropped.
func TestRateLimitedID(t *testing.T) {
	ts := newTestServer(t, "", func(c *Config) { c.RateLimit, c.RateBurst = 0.001, 3 })
	id, _, _, tokens := humanGame(t, ts, map[string]any{"variant": "chess"})
	c, err := loadtest.Join(ctxT(t), ts.URL, id, tokens[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	for i := range 6 {
		c.Send(ctxT(t), map[string]any{"t": "ping", "id": 100 + i})
	}
	seen := map[int64]string{}
	for len(seen) < 6 {
		f, err := c.Read(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		switch f.T {
		case "pong":
			seen[f.ID] = "pong"
		case "error":
			if f.Code != "rate_limited" {
				t.Fatalf("error %s %s", f.Code, f.Message)
			}
			if f.ID < 100 || f.ID > 105 {
				t.Fatalf("rate_limited with id %d, want the id of the dropped frame", f.ID)
			}
			seen[f.ID] = f.Code
		}
	}
	if seen[105] != "rate_limited" {
		t.Errorf("frames answered: %v", seen)
	}
}

// TestOptionValueCap: an option value over MaxOptionValue bytes is a
// bad_option, not something the variant has to parse.
func TestOptionValueCap(t *testing.T) {
	ts := newTestServer(t, "", nil)
	tests := []struct {
		body string
		code int
	}{
		{`{"variant":"vazir","options":{"MPT":"3"}}`, http.StatusCreated},
		{`{"variant":"vazir","options":{"MPT":"` + strings.Repeat("0", MaxOptionValue) + `3"}}`, http.StatusBadRequest},
	}
	for _, tc := range tests {
		st, ans := post(t, ts, "application/json", tc.body)
		if st != tc.code || (tc.code == http.StatusBadRequest && errCode(ans) != "bad_option") {
			t.Errorf("%.60s: %d %v, want %d", tc.body, st, ans, tc.code)
		}
	}
}
