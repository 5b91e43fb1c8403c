// Package rating holds Glicko-2 (Mark Glickman, "Example of the Glicko-2
// system", 2013) as pure functions, and the time classes games are rated
// in. It knows nothing of games, players or storage.
package rating

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Glicko-2's constants as anychess uses them.
const (
	// Initial is a new player's rating, InitialRD its deviation and
	// InitialVol its volatility.
	Initial    = 1500.0
	InitialRD  = 350.0
	InitialVol = 0.06
	// Tau constrains the change of volatility over time (the paper
	// suggests 0.3 to 1.2).
	Tau = 0.5
	// ProvisionalRD is the deviation above which a rating is provisional
	// (shown with a "?").
	ProvisionalRD = 110.0
	// MinRD keeps a deviation from shrinking to nothing.
	MinRD = 45.0
	// MaxRD caps a deviation at a new player's.
	MaxRD = InitialRD

	scale   = 173.7178 // Glicko-2's scale factor
	epsilon = 0.000001 // the convergence tolerance of the volatility iteration
)

// Rating is a player's Glicko-2 rating on the Glicko scale.
type Rating struct {
	R   float64 // the rating
	RD  float64 // the rating deviation
	Vol float64 // the volatility σ
}

// New returns a new player's rating.
func New() Rating { return Rating{R: Initial, RD: InitialRD, Vol: InitialVol} }

// Provisional reports whether r is not yet trustworthy: its deviation is
// above ProvisionalRD.
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// Result is one game of a rating period: the opponent's rating before the
// period and the score (1 a win, 0.5 a draw, 0 a loss).
type Result struct {
	Opponent Rating
	Score    float64
}

// ErrBadRating is returned for a rating, deviation, volatility or score
// outside the ranges Glicko-2 is defined on.
var ErrBadRating = errors.New("rating: bad value")

func check(r Rating) error {
	if math.IsNaN(r.R) || math.IsInf(r.R, 0) || !(r.RD > 0) || math.IsInf(r.RD, 0) || !(r.Vol > 0) || math.IsInf(r.Vol, 0) {
		return fmt.Errorf("%w: rating %v, deviation %v, volatility %v", ErrBadRating, r.R, r.RD, r.Vol)
	}
	return nil
}

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expect(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-g(phij)*(mu-muj))) }

// Update returns r after a rating period with the given results, with
// system constant tau (Glickman's steps 1 to 8). A period without games
// only widens the deviation. The deviation is not clamped: see Clamp.
func Update(r Rating, results []Result, tau float64) (Rating, error) {
	if err := check(r); err != nil {
		return Rating{}, err
	}
	if !(tau > 0) || math.IsInf(tau, 0) {
		return Rating{}, fmt.Errorf("%w: tau %v", ErrBadRating, tau)
	}
	mu := (r.R - Initial) / scale
	phi := r.RD / scale
	if len(results) == 0 {
		phiStar := math.Sqrt(phi*phi + r.Vol*r.Vol)
		return Rating{R: r.R, RD: phiStar * scale, Vol: r.Vol}, nil
	}
	var vInv, sum float64
	for _, res := range results {
		if err := check(res.Opponent); err != nil {
			return Rating{}, err
		}
		if !(res.Score >= 0 && res.Score <= 1) {
			return Rating{}, fmt.Errorf("%w: score %v", ErrBadRating, res.Score)
		}
		muj := (res.Opponent.R - Initial) / scale
		phij := res.Opponent.RD / scale
		gj := g(phij)
		e := expect(mu, muj, phij)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum

	// Step 5: the new volatility by the Illinois algorithm.
	a := math.Log(r.Vol * r.Vol)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 1000; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	vol := math.Exp(A / 2)

	phiStar := math.Sqrt(phi*phi + vol*vol)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Rating{R: muNew*scale + Initial, RD: phiNew * scale, Vol: vol}, nil
}

// Clamp keeps a deviation within MinRD..MaxRD.
func (r Rating) Clamp() Rating {
	r.RD = min(max(r.RD, MinRD), MaxRD)
	return r
}

// Game returns both players' ratings after one game between them, each
// rated as a rating period of that one game against the other's rating
// before it, with Tau and deviations clamped. score is white's (1, 0.5, 0).
func Game(white, black Rating, score float64) (Rating, Rating, error) {
	w, err := Update(white, []Result{{Opponent: black, Score: score}}, Tau)
	if err != nil {
		return Rating{}, Rating{}, err
	}
	b, err := Update(black, []Result{{Opponent: white, Score: 1 - score}}, Tau)
	if err != nil {
		return Rating{}, Rating{}, err
	}
	return w.Clamp(), b.Clamp(), nil
}

// Class is a time class games are rated in.
type Class string

// The time classes, by a game's estimated duration (initial time plus 40
// increments) with lichess's thresholds; a game without a clock is
// correspondence.
const (
	Bullet         Class = "bullet"         // under 3 minutes
	Blitz          Class = "blitz"          // under 8 minutes
	Rapid          Class = "rapid"          // everything else with a clock
	Correspondence Class = "correspondence" // days per move, or no clock
)

// Classes lists the time classes, fastest first.
var Classes = []Class{Bullet, Blitz, Rapid, Correspondence}

// ClassOf returns the time class of a clock of initial time and increment
// per move (both zero: no clock, correspondence).
func ClassOf(initial, increment time.Duration) Class {
	if initial <= 0 && increment <= 0 {
		return Correspondence
	}
	est := initial + 40*increment
	switch {
	case est < 3*time.Minute:
		return Bullet
	case est < 8*time.Minute:
		return Blitz
	default:
		return Rapid
	}
}

// ParseClass returns the class named s.
func ParseClass(s string) (Class, error) {
	for _, c := range Classes {
		if string(c) == s {
			return c, nil
		}
	}
	return "", fmt.Errorf("rating: time class %q: want bullet, blitz, rapid or correspondence", s)
}
