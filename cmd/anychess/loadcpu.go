package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/anychess/anychess/server/loadtest"
)

// parsePids parses loadtest's -pids: process ids separated by commas.
func parsePids(list string) ([]int, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	var pids []int
	for _, f := range strings.Split(list, ",") {
		pid, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || pid <= 0 {
			return nil, fmt.Errorf("-pids: %q is not a process id", f)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}

// cpuMeter measures the processor time the processes of a load run use
// from its creation.
type cpuMeter struct {
	pids  []int
	start []time.Duration
	err   error // the first reading that failed
}

// newCPUMeter starts measuring pids' processor time.
func newCPUMeter(pids []int) *cpuMeter {
	m := &cpuMeter{pids: pids}
	for _, pid := range pids {
		t, err := loadtest.ProcessCPU(pid)
		if err != nil && m.err == nil {
			m.err = fmt.Errorf("process %d: %w", pid, err)
		}
		m.start = append(m.start, t)
	}
	return m
}

// report prints the processor time used since the start by each process
// and in all: per unit (n of them, e.g. n moves with unit "move" and units
// "moves") when n > 0, and in cores on average over d. Nothing is printed
// without processes.
func (m *cpuMeter) report(w io.Writer, n int64, unit, units string, d time.Duration) {
	if len(m.pids) == 0 {
		return
	}
	var total time.Duration
	var each []string
	err := m.err
	for i, pid := range m.pids {
		t, e := loadtest.ProcessCPU(pid)
		if e != nil && err == nil {
			err = fmt.Errorf("process %d: %w", pid, e)
		}
		used := t - m.start[i]
		total += used
		each = append(each, fmt.Sprintf("%d: %.1fs", pid, used.Seconds()))
	}
	if err != nil {
		fmt.Fprintf(w, "server CPU    not measured: %v\n", err)
		return
	}
	fmt.Fprintf(w, "server CPU    %.1fs", total.Seconds())
	if n > 0 {
		fmt.Fprintf(w, " for %d %s: %.0f µs per %s", n, units, float64(total.Microseconds())/float64(n), unit)
	}
	fmt.Fprintf(w, " (%.2f cores on average)\n", total.Seconds()/d.Seconds())
	if len(m.pids) > 1 {
		fmt.Fprintf(w, "by process    %s\n", strings.Join(each, ", "))
	}
}
