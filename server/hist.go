package server

import (
	"math"
	"sync/atomic"
	"time"
)

// hist is a histogram of durations in buckets growing by a quarter, from
// 10µs to about 100s, safe for concurrent use.
type hist struct {
	counts [80]atomic.Int64
}

const histBase = 10 * time.Microsecond

func (h *hist) add(d time.Duration) {
	i := 0
	if d > histBase {
		i = int(math.Log(float64(d)/float64(histBase))/math.Log(1.25)) + 1
	}
	h.counts[min(i, len(h.counts)-1)].Add(1)
}

// quantile returns the upper bound of the bucket holding quantile q.
func (h *hist) quantile(q float64) time.Duration {
	var n int64
	for i := range h.counts {
		n += h.counts[i].Load()
	}
	if n == 0 {
		return 0
	}
	want := int64(math.Ceil(q * float64(n)))
	var seen int64
	for i := range h.counts {
		seen += h.counts[i].Load()
		if seen >= want {
			return time.Duration(float64(histBase) * math.Pow(1.25, float64(i)))
		}
	}
	return time.Duration(float64(histBase) * math.Pow(1.25, float64(len(h.counts))))
}

// reset empties the histogram.
func (h *hist) reset() {
	for i := range h.counts {
		h.counts[i].Store(0)
	}
}
