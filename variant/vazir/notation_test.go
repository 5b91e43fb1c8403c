package vazir

import (
	"errors"
	"math"
	"testing"

	"github.com/anychess/anychess/game"
	"github.com/anychess/anychess/rules"
)

func TestOptionsTags(t *testing.T) {
	o := DefaultOptions()
	o.MPT, o.RankInit, o.SameTargetOnly, o.PromotionRounding = 2, Fixed(4), true, HalfEven
	o.HundredPercentScope, o.ExtraMoveScope, o.ExtraMoveCapturesCertain = NoOtherEvasion, AnyEvasion, false
	var back Options
	for _, tag := range o.Tags() {
		if ok, err := back.SetTag(tag[0], tag[1]); !ok || err != nil {
			t.Errorf("SetTag(%q, %q) = %v, %v", tag[0], tag[1], ok, err)
		}
	}
	if back != o {
		t.Errorf("tags round trip: %+v, want %+v", back, o)
	}
	if ok, err := back.SetTag("Event", "x"); ok || err != nil {
		t.Error("a non-option tag was taken")
	}
	for _, bad := range [][2]string{
		{"MPT", "0"}, {"MPT", "x"}, {"RankInit", "Fixed(10)"}, {"RankInit", "Random"},
		{"QuietAfterFail", "yes"}, {"PromotionRounding", "Up"}, {"HundredPercentScope", ""},
		{"ExtraMoveScope", "Queen"}, {"ExtraMoveCapturesCertain", "2"}, {"SameTargetOnly", ""},
	} {
		if _, err := back.SetTag(bad[0], bad[1]); !errors.Is(err, ErrOption) {
			t.Errorf("SetTag(%q, %q) error %v", bad[0], bad[1], err)
		}
	}
	got, err := OptionsFromTags(map[string]string{"MPT": "5", "Site": "?"})
	if err != nil || got.MPT != 5 || !got.QuietAfterFail || !got.ExtraMoveCapturesCertain {
		t.Errorf("OptionsFromTags: %+v, %v", got, err)
	}
	for _, ri := range []RankInit{RandomMirrored, RandomIndependent, FromFEN, Fixed(0), Fixed(9)} {
		if back, err := ParseRankInit(ri.String()); err != nil || back != ri {
			t.Errorf("RankInit %v round trip: %v, %v", ri, back, err)
		}
	}
	if _, err := New(Options{MPT: -1}); !errors.Is(err, ErrOption) {
		t.Errorf("New with MPT -1: %v", err)
	}
	if _, err := New(Options{}); err != nil {
		t.Errorf("New with zero options: %v", err)
	}
}

func TestParseRFENErrors(t *testing.T) {
	v := newVariant(t, nil)
	for _, bad := range []string{
		"",
		"k07/8/8/8/8/8/8/7K0",                       // no side
		"k7/8/8/8/8/8/8/7K0 w - - 0 1 t0",           // no rank digit
		"k07/8/8/8/8/8/8/7K w - - 0 1 t0",           // last piece without digit
		"k07/8/8/8/8/8/8/7K0 w - - 0 1 tx",          // bad turn field
		"k07/8/8/8/8/8/8/7K0 w - - 0 1 t",           // bad turn field
		"k07/8/8/8/8/8/8/7K0 w - - 0 1 t999",        // too many tries
		"k07/8/8/8/8/8/8/7K0 w - - 0 1 t3K",         // K without check
		"k07/8/8/8/8/8/8/7K0 w - - 0 1 t1@e4",       // target on an empty square
		"k07/8/8/8/8/8/8/7K0 w - - 0 1 t0@a8",       // target without tries
		"k07/8/8/8/8/8/8/7K0 w - - 0 1 t1@z9",       // bad square
		"k07/8/8/8/8/8/8/7K0 x - - 0 1 t0",          // bad side
		"k07/8/8/8/8/8/8/8 w - - 0 1 t0",            // no white king
		"k07/8/8/8/8/8/8/7K0 w - - 0 1 2 t0",        // too many fields
		"k08/8/8/8/8/8/8/7K0 w - - 0 1 t0",          // 9 files
		"k07/8/8/8/8/8/8/7K0 w - - 0 1 t0 t0",       // two turn fields
		"4k03/8/8/3p9P53/8/8/8/4K03 w - d6 0 2 t1K", // e.p. in the extra move
		"k07/8/8/3r54/8/8/8/3R33K0 w - - 0 1 t3",    // all MPT tries used, not in check
		"k07/8/8/3r54/8/8/8/3R33K0 w - - 0 1 t4",    // more tries than MPT
		"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t4",    // more tries than MPT, in check
		"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t2K",   // the extra move before all tries
		"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t4K",   // the extra move after more than MPT
	} {
		p, err := ParseRFEN(v, bad)
		if err == nil {
			t.Errorf("ParseRFEN(%q) accepted: %s", bad, RFEN(p))
			continue
		}
		if !errors.Is(err, ErrRFEN) || !errors.Is(err, rules.ErrFEN) {
			t.Errorf("ParseRFEN(%q) error %v does not wrap ErrRFEN and ErrFEN", bad, err)
		}
	}
	if _, err := ParseRFEN(nil, "k07/8/8/8/8/8/8/7K0 w"); !errors.Is(err, ErrRFEN) {
		t.Errorf("nil variant: %v", err)
	}
	// Short forms: no move counters, no turn field.
	for in, want := range map[string]string{
		"k07/8/8/8/8/8/8/7K0 w":            "k07/8/8/8/8/8/8/7K0 w - - 0 1 t0",
		"k07/8/8/8/8/8/8/7K0 w - - t1":     "k07/8/8/8/8/8/8/7K0 w - - 0 1 t1",
		"k07/8/8/8/8/8/8/7K0 b - - 3 9":    "k07/8/8/8/8/8/8/7K0 b - - 3 9 t0",
		"k07/8/8/8/8/8/8/R53K03 b - - 3 9": "k07/8/8/8/8/8/8/R53K03 b - - 3 9 t0",
		"k07/8/8/8/8/8/8/7K0 w - - t2":     "k07/8/8/8/8/8/8/7K0 w - - 0 1 t2",
		// the tries used up in check: the VZ-15a loss, and the extra move
		"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t3":  "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t3",
		"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t3K": "k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t3K",
	} {
		p, err := ParseRFEN(v, in)
		if err != nil {
			t.Errorf("ParseRFEN(%q): %v", in, err)
			continue
		}
		if got := RFEN(p); got != want {
			t.Errorf("ParseRFEN(%q) written as %q, want %q", in, got, want)
		}
	}
}

// FuzzRFEN: whatever parses is written back and read again to the same
// position and hash.
func FuzzRFEN(f *testing.F) {
	for _, s := range []string{
		"k07/8/8/8/8/8/6P3P3/6r9K0 w - - 0 1 t0",
		"k07/8/8/2b55/8/8/6P3P3/6r9K0 w - - 0 1 t0",
		"k07/5R02/8/8/8/8/5n92/7K0 w - - 0 1 t3K",
		"3r43k0/4P63/8/8/8/8/8/4K03 w - - 0 1 t1",
		"4k03/8/8/3p9P53/8/8/8/4K03 w - d6 0 2 t1",
		"3r93k0/8/8/8/8/8/8/n92R0K03 w - - 0 1 t1@d8",
		"r3n5b1q9k4b6n2r7/p5p0p8p2p2p6p1p9/8/8/8/8/P5P0P8P2P2P6P1P9/R3N5B1Q9K4B6N2R7 w KQkq - 0 1 t0",
	} {
		f.Add(s)
	}
	v := newVariant(f, nil)
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseRFEN(v, s)
		if err != nil {
			if !errors.Is(err, ErrRFEN) {
				t.Fatalf("error %v does not wrap ErrRFEN", err)
			}
			return
		}
		out := RFEN(p)
		q, err := ParseRFEN(v, out)
		if err != nil {
			t.Fatalf("%q written as %q, which does not parse: %v", s, out, err)
		}
		if RFEN(q) != out || q.Hash() != p.Hash() {
			t.Fatalf("%q: %q read back as %q (hash %x vs %x)", s, out, RFEN(q), q.Hash(), p.Hash())
		}
	})
}

// TestStatisticalSuccessRate draws 100,000 seeded attempts per case through
// Choose (a die with a+d+1 faces, success iff u <= a) and checks the rate
// within 4 standard deviations of (a+1)/(a+d+1) (VZ-4, VZ-5).
func TestStatisticalSuccessRate(t *testing.T) {
	const n = 100_000
	r := game.NewRoller(20240601)
	for _, c := range [][2]int{{0, 9}, {3, 5}, {5, 5}, {9, 1}} {
		a, d := c[0], c[1]
		num, den := Probability(a, d)
		outs := []rules.Outcome{{Num: num, Den: den, Label: Hit}, {Num: den - num, Den: den, Label: Miss}}
		hits := 0
		for range n {
			k, err := rules.Choose(r, outs)
			if err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				hits++
			}
		}
		p := float64(num) / float64(den)
		sd := math.Sqrt(n * p * (1 - p))
		if dev := math.Abs(float64(hits) - n*p); dev > 4*sd {
			t.Errorf("P(%d,%d): %d hits of %d, expected %.0f ± %.0f", a, d, hits, n, n*p, 4*sd)
		}
	}
}

func TestParseRFENOpponentInCheck(t *testing.T) {
	v := newVariant(t, nil)
	if _, err := ParseRFEN(v, "k07/8/8/8/8/8/8/R06K0 w - - 0 1 t0"); !errors.Is(err, ErrRFEN) {
		t.Errorf("black in check with white to move: %v", err)
	}
}
