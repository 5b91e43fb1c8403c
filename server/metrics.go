package server

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"time"
)

// handleMetrics answers GET /metrics in Prometheus's text format (version
// 0.0.4): the games held, the open connections, the moves acknowledged
// and their latency, the store's write latency, the engine's searches
// running and waiting, and the process's goroutines and heap. It tells
// nothing about any one game.
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	s.writeMetrics(w)
}

// writeMetrics writes the metrics of handleMetrics.
func (s *Server) writeMetrics(w io.Writer) {
	s.mu.Lock()
	games := len(s.games)
	s.mu.Unlock()
	running, waiting := s.engines.load()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)

	gauge := func(name, help string, v float64) { writeMetric(w, "gauge", name, help, v) }
	gauge("anychess_games_live", "Games held in memory.", float64(games))
	gauge("anychess_connections", "Open WebSocket connections.", float64(s.conns.Load()))
	gauge("anychess_engine_searches_running", "Engine searches running for games.", float64(running))
	gauge("anychess_engine_searches_waiting", "Engine searches waiting for a free engine.", float64(waiting))
	gauge("go_goroutines", "Goroutines.", float64(runtime.NumGoroutine()))
	gauge("go_memstats_heap_inuse_bytes", "Bytes of heap in use.", float64(ms.HeapInuse))
	writeHist(w, "anychess_move_ack_seconds", "Time from a move read to its acknowledgement queued; its count is the moves acknowledged.", &s.ackLat)
	writeHist(w, "anychess_store_write_seconds", "Time of one event's write to the store.", &s.storeLat)
	if s.cluster != nil {
		s.cluster.writeMetrics(w)
	}
}

// writeMetric writes one metric of kind ("gauge", "counter") with its
// help and value.
func writeMetric(w io.Writer, kind, name, help string, v float64) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %s\n", name, help, name, kind, name, strconv.FormatFloat(v, 'g', -1, 64))
}

// writeHist writes h as a Prometheus histogram: cumulative buckets by
// upper bound in seconds, every fourth of h's buckets (a factor of about
// 2.4 apart), then +Inf, the sum and the count.
func writeHist(w io.Writer, name, help string, h *hist) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name)
	var cum int64
	for i := range h.all {
		cum += h.all[i].Load()
		if i%4 == 3 && i < len(h.all)-1 {
			fmt.Fprintf(w, "%s_bucket{le=\"%s\"} %d\n", name, strconv.FormatFloat(bound(i).Seconds(), 'g', 4, 64), cum)
		}
	}
	fmt.Fprintf(w, "%s_bucket{le=\"+Inf\"} %d\n", name, cum)
	fmt.Fprintf(w, "%s_sum %s\n", name, strconv.FormatFloat(time.Duration(h.sum.Load()).Seconds(), 'g', -1, 64))
	fmt.Fprintf(w, "%s_count %d\n", name, cum)
}

// load returns the searches running and waiting in the pool.
func (p *enginePool) load() (running, waiting int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, n := range p.running {
		running += n
	}
	for _, q := range p.queues {
		waiting += len(q)
	}
	return running, waiting
}
