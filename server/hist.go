package server

import (
	"math"
	"sync/atomic"
	"time"
)

// hist is a histogram of durations in buckets growing by a quarter, from
// 10µs to about 100s, safe for concurrent use. counts can be reset (for
// load tests); all and sum count every duration ever added, for metrics
// that only grow.
type hist struct {
	counts [80]atomic.Int64
	all    [80]atomic.Int64
	sum    atomic.Int64 // nanoseconds
}

const histBase = 10 * time.Microsecond

func (h *hist) add(d time.Duration) {
	i := 0
	if d > histBase {
		i = int(math.Log(float64(d)/float64(histBase))/math.Log(1.25)) + 1
	}
	i = min(i, len(h.counts)-1)
	h.counts[i].Add(1)
	h.all[i].Add(1)
	h.sum.Add(int64(d))
}

// bound returns the upper bound of bucket i.
func bound(i int) time.Duration {
	return time.Duration(float64(histBase) * math.Pow(1.25, float64(i)))
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
			return bound(i)
		}
	}
	return bound(len(h.counts))
}

// reset empties the histogram.
func (h *hist) reset() {
	for i := range h.counts {
		h.counts[i].Store(0)
	}
}
