package server

import (
	"bufio"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// scrape reads /metrics into a map from each sample's name (with its
// labels) to its value, checking the text format on the way.
func scrape(t *testing.T, ts *testServer) map[string]float64 {
	t.Helper()
	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("/metrics: %s, Content-Type %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# HELP ") || strings.HasPrefix(line, "# TYPE ") {
			continue
		}
		name, val, ok := strings.Cut(line, " ")
		f, err := strconv.ParseFloat(val, 64)
		if !ok || err != nil {
			t.Fatalf("/metrics: a line that is not a sample: %q", line)
		}
		if _, dup := out[name]; dup {
			t.Fatalf("/metrics: %s twice", name)
		}
		out[name] = f
	}
	if err := sc.Err(); err != nil && err != io.EOF {
		t.Fatal(err)
	}
	return out
}

// TestMetrics: /metrics counts the games held and the moves acknowledged,
// with histograms whose buckets only grow and end in the count.
func TestMetrics(t *testing.T) {
	ts := newTestServer(t, "", nil)
	before := scrape(t, ts)
	if before["anychess_games_live"] != 0 || before["anychess_move_ack_seconds_count"] != 0 {
		t.Fatalf("a new server: %v", before)
	}
	_, w, b, _ := humanGame(t, ts, map[string]any{"variant": "chess", "color": "white"})
	w.mustMove("e4")
	b.mustMove("e5")
	w.mustMove("Nf3")
	m := scrape(t, ts)
	for name, want := range map[string]float64{
		"anychess_games_live":             1,
		"anychess_connections":            2,
		"anychess_move_ack_seconds_count": 3,
	} {
		if m[name] != want {
			t.Errorf("%s = %v, want %v", name, m[name], want)
		}
	}
	if m["anychess_store_write_seconds_count"] < 3 || m["anychess_move_ack_seconds_sum"] <= 0 {
		t.Errorf("store writes %v, ack time %v", m["anychess_store_write_seconds_count"], m["anychess_move_ack_seconds_sum"])
	}
	for _, h := range []string{"anychess_move_ack_seconds", "anychess_store_write_seconds"} {
		last, n := -1.0, 0
		for name, v := range m {
			if strings.HasPrefix(name, h+"_bucket{") {
				n++
				if name == h+`_bucket{le="+Inf"}` && v != m[h+"_count"] {
					t.Errorf("%s: +Inf bucket %v, count %v", h, v, m[h+"_count"])
				}
			}
		}
		// The buckets in the order written grow.
		resp, err := http.Get(ts.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for line := range strings.SplitSeq(string(body), "\n") {
			if strings.HasPrefix(line, h+"_bucket{") {
				_, val, _ := strings.Cut(line, " ")
				v, _ := strconv.ParseFloat(val, 64)
				if v < last {
					t.Errorf("%s: %q after a bucket of %v", h, line, last)
				}
				last = v
			}
		}
		if n < 10 {
			t.Errorf("%s: %d buckets", h, n)
		}
	}
}
