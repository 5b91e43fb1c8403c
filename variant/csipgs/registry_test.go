package csipgs

import (
	"runtime"
	"testing"
	"time"
)

// TestVariantsCollected checks that the registry behind IsCsipgs does not
// keep variants alive: after the variants of many games (moderated ones
// with their views among them) are dropped, their entries go.
func TestVariantsCollected(t *testing.T) {
	count := func() int {
		n := 0
		variants.Range(func(_, _ any) bool { n++; return true })
		return n
	}
	before := count()
	for i := range 100 {
		v, err := New(Options{Moderated: i%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		p := v.Start()
		if !IsCsipgs(v) {
			t.Fatal("IsCsipgs is false for a csipgs variant")
		}
		if i%2 == 0 {
			p.View(p.Turn())
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for count() > before+10 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := count() - before; n > 10 {
		t.Errorf("%d registry entries outlive their variants", n)
	}
}
