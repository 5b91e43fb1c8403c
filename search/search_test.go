package search_test

import (
	"context"
	"testing"
	"time"

	"github.com/anychess/anychess/notation"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/search"
	"github.com/anychess/anychess/variant"
)

var reg = variant.MustDefault()

func pos(t testing.TB, name, fen string) *rules.Position {
	t.Helper()
	v, err := reg.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	if fen == "" {
		return v.Start()
	}
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindsMate(t *testing.T) {
	tests := []struct {
		variant, fen string
		best         string // SAN of the only good move
		mate         int    // moves to mate
	}{
		{"chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "Rd8#", 1},
		{"chess", "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "Qxf7#", 1},
		{"chess", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "Nf6+", 2},
		// Chatrang: taking the last piece wins at once (CH-10).
		{"chatrang", "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1", "Kxe2", 1},
	}
	for _, tt := range tests {
		p := pos(t, tt.variant, tt.fen)
		e := search.New(16)
		res := e.Search(context.Background(), p, search.Limits{Depth: 6}, nil)
		got := notation.SAN(p, res.Best)
		if got != tt.best {
			t.Errorf("%s: best %s, want %s (info %+v)", tt.fen, got, tt.best, res.Info)
		}
		if tt.mate > 0 && res.Info.Mate != tt.mate {
			t.Errorf("%s: mate %d, want %d", tt.fen, res.Info.Mate, tt.mate)
		}
	}
}

func TestStalemateWinsInChatrang(t *testing.T) {
	// Black to move is stalemated: in Chatrang that is a win for Black (CH-10).
	p := pos(t, "chatrang", "k7/p1K5/P7/8/8/8/8/8 b - - 0 1")
	res := search.New(1).Search(context.Background(), p, search.Limits{Depth: 3}, nil)
	if res.Best != rules.NoMove || res.Info.Score != search.Mate {
		t.Errorf("stalemated side: %+v", res)
	}
}

func TestTimeLimit(t *testing.T) {
	p := pos(t, "chess", "")
	e := search.New(16)
	start := time.Now()
	res := e.Search(context.Background(), p, search.Limits{MoveTime: 200 * time.Millisecond}, nil)
	if el := time.Since(start); el > 400*time.Millisecond {
		t.Errorf("a 200 ms search took %v", el)
	}
	if res.Best == rules.NoMove || res.Info.Depth < 3 {
		t.Errorf("result %+v", res.Info)
	}
}
