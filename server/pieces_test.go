package server

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/anychess/anychess/catalog"
)

// getJSON GETs url and decodes the answer into out; it returns the status.
func getJSON(t *testing.T, url string, out any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp.StatusCode
}

// TestPieceMoves checks the pieces' moves from the centre that the rules
// pages draw: what the rules generate on an empty board, for pieces of
// plain data and of hooks alike.
func TestPieceMoves(t *testing.T) {
	ts := newTestServer(t, "", nil)
	tests := []struct {
		variant, piece    string
		from              string
		moves, captures   string // space-separated, sorted
		movesN, capturesN int    // when the lists are long
	}{
		{variant: "chess", piece: "knight", from: "d4", moves: "b3 b5 c2 c6 e2 e6 f3 f5", captures: "b3 b5 c2 c6 e2 e6 f3 f5"},
		{variant: "chess", piece: "pawn", from: "d4", moves: "d5", captures: "c5 e5"},
		{variant: "chess", piece: "queen", from: "d4", movesN: 27, capturesN: 27},
		{variant: "chess", piece: "king", from: "d4", moves: "c3 c4 c5 d3 d5 e3 e4 e5", captures: "c3 c4 c5 d3 d5 e3 e4 e5"},
		{variant: "greatshatranj", piece: "woody", from: "e4", moves: "c4 d4 e2 e3 e5 e6 f4 g4", captures: "c4 d4 e2 e3 e5 e6 f4 g4"},
		{variant: "chatrang", piece: "pil", from: "d4", moves: "a1 a7 b2 b6 f2 f6 g1 g7 h8", captures: "a1 a7 b2 b6 f2 f6 g1 g7 h8"},
		// Crazy Chess's King takes two steps (its Generate hook), which
		// generates nothing without both kings on the board.
		{variant: "crazychess", piece: "king", from: "d4", movesN: 24, capturesN: 24},
		{variant: "crazychess", piece: "knight", from: "d4", moves: "b3 b5 c2 c6 e2 e6 f3 f5", captures: "b3 b5 c2 c6 e2 e6 f3 f5"},
		{variant: "vazir", piece: "bishop", from: "d4", movesN: 13, capturesN: 13},
	}
	cache := map[string]PiecesInfo{}
	for _, tc := range tests {
		t.Run(tc.variant+"/"+tc.piece, func(t *testing.T) {
			info, ok := cache[tc.variant]
			if !ok {
				if st := getJSON(t, ts.URL+"/api/variants/"+tc.variant+"/pieces", &info); st != http.StatusOK {
					t.Fatalf("status %d", st)
				}
				cache[tc.variant] = info
			}
			i := slices.IndexFunc(info.Pieces, func(p PieceMoves) bool { return p.Name == tc.piece })
			if i < 0 {
				t.Fatalf("no %s in %+v", tc.piece, info.Pieces)
			}
			p := info.Pieces[i]
			if p.From != tc.from {
				t.Errorf("from %s, want %s", p.From, tc.from)
			}
			check := func(what string, got []string, want string, n int) {
				if want != "" && strings.Join(got, " ") != want {
					t.Errorf("%s %v, want %s", what, got, want)
				}
				if n != 0 && len(got) != n {
					t.Errorf("%d %s %v, want %d", len(got), what, got, n)
				}
			}
			check("moves", p.Moves, tc.moves, tc.movesN)
			check("captures", p.Captures, tc.captures, tc.capturesN)
		})
	}
}

// TestPiecesOfEveryVariant checks that every variant lists its pieces with
// names, Betza and somewhere to go, and that the unused slots of a
// per-game type table (csipgs's) are left out.
func TestPiecesOfEveryVariant(t *testing.T) {
	ts := newTestServer(t, "", nil)
	for _, v := range catalog.MustDefault().Variants() {
		t.Run(v.Name(), func(t *testing.T) {
			var info PiecesInfo
			if st := getJSON(t, ts.URL+"/api/variants/"+v.Name()+"/pieces", &info); st != http.StatusOK {
				t.Fatalf("status %d", st)
			}
			if len(info.Pieces) == 0 || info.Files != v.Board().Files || info.Ranks != v.Board().Ranks {
				t.Fatalf("%+v", info)
			}
			for _, p := range info.Pieces {
				if p.Name == "" || p.Betza == "" || p.Letter == "" || len(p.Moves)+len(p.Captures) == 0 {
					t.Errorf("piece %+v", p)
				}
				if p.Betza == "iW" {
					t.Errorf("an unused type slot is listed: %+v", p)
				}
			}
		})
	}
	var e apiError
	if st := getJSON(t, ts.URL+"/api/variants/nosuchvariant/pieces", &e); st != http.StatusNotFound || e.Error.Code != "unknown_variant" {
		t.Errorf("unknown variant: status %d, %+v", st, e)
	}
}
