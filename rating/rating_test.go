package rating

import (
	"errors"
	"math"
	"testing"
	"time"
)

// TestPaperExample checks Update against the worked example of Glickman's
// "Example of the Glicko-2 system": a 1500/200 player with volatility
// 0.06 and tau 0.5 beats a 1400/30 player and loses to 1550/100 and
// 1700/300 players.
func TestPaperExample(t *testing.T) {
	r := Rating{R: 1500, RD: 200, Vol: 0.06}
	got, err := Update(r, []Result{
		{Opponent: Rating{R: 1400, RD: 30, Vol: 0.06}, Score: 1},
		{Opponent: Rating{R: 1550, RD: 100, Vol: 0.06}, Score: 0},
		{Opponent: Rating{R: 1700, RD: 300, Vol: 0.06}, Score: 0},
	}, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"rating", got.R, 1464.06, 0.01},
		{"deviation", got.RD, 151.52, 0.01},
		{"volatility", got.Vol, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.5f, want %.5f ± %g", c.name, c.got, c.want, c.tol)
		}
	}
}

func TestUpdate(t *testing.T) {
	p := Rating{R: 1500, RD: 200, Vol: 0.06}
	tests := []struct {
		name    string
		r       Rating
		res     []Result
		tau     float64
		wantErr bool
		check   func(t *testing.T, got Rating)
	}{
		{name: "no games widen the deviation", r: p, tau: 0.5, check: func(t *testing.T, got Rating) {
			if got.R != 1500 || !(got.RD > 200) || math.Abs(got.RD-math.Sqrt(200*200+math.Pow(0.06*scale, 2))) > 1e-9 {
				t.Errorf("got %+v", got)
			}
		}},
		{name: "a win raises", r: p, tau: 0.5, res: []Result{{Opponent: p, Score: 1}}, check: func(t *testing.T, got Rating) {
			if !(got.R > 1500) || !(got.RD < 200) {
				t.Errorf("got %+v", got)
			}
		}},
		{name: "a draw between equals keeps the rating", r: p, tau: 0.5, res: []Result{{Opponent: p, Score: 0.5}}, check: func(t *testing.T, got Rating) {
			if math.Abs(got.R-1500) > 1e-9 {
				t.Errorf("got %+v", got)
			}
		}},
		{name: "bad deviation", r: Rating{R: 1500, RD: 0, Vol: 0.06}, tau: 0.5, wantErr: true},
		{name: "NaN rating", r: Rating{R: math.NaN(), RD: 100, Vol: 0.06}, tau: 0.5, wantErr: true},
		{name: "bad score", r: p, tau: 0.5, res: []Result{{Opponent: p, Score: 2}}, wantErr: true},
		{name: "bad opponent", r: p, tau: 0.5, res: []Result{{Opponent: Rating{R: 1500, RD: -1, Vol: 0.06}, Score: 1}}, wantErr: true},
		{name: "bad tau", r: p, tau: 0, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Update(tc.r, tc.res, tc.tau)
			if tc.wantErr {
				if !errors.Is(err, ErrBadRating) {
					t.Fatalf("err = %v, want ErrBadRating", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, got)
		})
	}
}

func TestGame(t *testing.T) {
	w, b, err := Game(New(), New(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !(w.R > 1500) || !(b.R < 1500) || math.Abs((w.R-1500)-(1500-b.R)) > 1e-6 {
		t.Errorf("white %+v black %+v: want symmetric changes", w, b)
	}
	if !w.Provisional() || w.RD > MaxRD {
		t.Errorf("white %+v: want provisional and clamped", w)
	}
	// A settled pair keeps its deviation at least MinRD.
	s := Rating{R: 2000, RD: MinRD, Vol: 0.03}
	w, _, err = Game(s, s, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if w.RD < MinRD || w.Provisional() {
		t.Errorf("settled %+v", w)
	}
}

func TestClassOf(t *testing.T) {
	tests := []struct {
		initial, inc time.Duration
		want         Class
	}{
		{0, 0, Correspondence},
		{time.Minute, 0, Bullet},
		{2 * time.Minute, time.Second, Bullet},    // 160 s
		{2 * time.Minute, 2 * time.Second, Blitz}, // 200 s
		{3 * time.Minute, 2 * time.Second, Blitz}, // 260 s
		{5 * time.Minute, 3 * time.Second, Blitz}, // 420 s
		{8 * time.Minute, 0, Rapid},               // 480 s
		{10 * time.Minute, 0, Rapid},
		{30 * time.Minute, 20 * time.Second, Rapid},
	}
	for _, tc := range tests {
		if got := ClassOf(tc.initial, tc.inc); got != tc.want {
			t.Errorf("ClassOf(%v, %v) = %s, want %s", tc.initial, tc.inc, got, tc.want)
		}
	}
	if _, err := ParseClass("classical"); err == nil {
		t.Error("ParseClass(classical): no error")
	}
	if c, err := ParseClass("blitz"); err != nil || c != Blitz {
		t.Errorf("ParseClass(blitz) = %s, %v", c, err)
	}
}
