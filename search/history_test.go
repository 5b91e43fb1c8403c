package search

import "testing"

// TestGravity checks that history scores approach but never pass ±histMax.
func TestGravity(t *testing.T) {
	for _, bonus := range []int{histBonus(1), histBonus(30), -histBonus(30)} {
		var h int32
		for range 10000 {
			gravity(&h, bonus)
			if h > histMax || h < -histMax {
				t.Fatalf("bonus %d: score %d beyond ±%d", bonus, h, histMax)
			}
		}
		if bonus > 0 && h < histMax*9/10 || bonus < 0 && h > -histMax*9/10 {
			t.Errorf("bonus %d: score %d, want near ±%d", bonus, h, histMax)
		}
	}
}
