package main

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParsePids checks loadtest's -pids.
func TestParsePids(t *testing.T) {
	tests := []struct {
		in   string
		want []int
		err  string
	}{
		{"", nil, ""},
		{"12", []int{12}, ""},
		{"12, 34", []int{12, 34}, ""},
		{"12,x", nil, `"x" is not a process id`},
		{"0", nil, `"0" is not a process id`},
		{"12,", nil, `"" is not a process id`},
	}
	for _, tt := range tests {
		got, err := parsePids(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parsePids(%q) = %v, %v; want an error with %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("parsePids(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// TestCPUMeter checks the CPU lines of a load run: per unit and by
// process with several processes, nothing without any, and a process
// that cannot be read said so.
func TestCPUMeter(t *testing.T) {
	me := os.Getpid()
	tests := []struct {
		pids []int
		n    int64
		want []string // lines that must appear
		none bool     // no output at all
	}{
		{nil, 10, nil, true},
		{[]int{me}, 10, []string{"server CPU    ", " for 10 moves: ", " µs per move (", " cores on average)"}, false},
		{[]int{me, me}, 0, []string{"server CPU    ", "by process    "}, false},
		{[]int{me, 1 << 30}, 5, []string{"server CPU    not measured: process 1073741824"}, false},
	}
	for _, tt := range tests {
		m := newCPUMeter(tt.pids)
		var out strings.Builder
		m.report(&out, tt.n, "move", "moves", time.Second)
		if tt.none {
			if out.Len() != 0 {
				t.Errorf("%v: printed %q", tt.pids, out.String())
			}
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: %q lacks %q", tt.pids, out.String(), w)
			}
		}
	}
}
