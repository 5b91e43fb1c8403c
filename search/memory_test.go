package search

import "testing"

// TestMemTotalMB: MemTotal is read in megabytes; text without a usable
// MemTotal gives the fallback.
func TestMemTotalMB(t *testing.T) {
	tests := []struct {
		meminfo string
		want    int
	}{
		{"MemTotal:       24684092 kB\nMemFree:         1000 kB\n", 24105},
		{"MemFree:         1000 kB\nMemTotal:        2097152 kB\n", 2048},
		{"MemFree:         1000 kB\n", fallbackHashMB},
		{"MemTotal:       lots kB\n", fallbackHashMB},
		{"MemTotal:       512 kB\n", fallbackHashMB},
		{"MemTotal:\n", fallbackHashMB},
		{"", fallbackHashMB},
	}
	for _, tt := range tests {
		if got := memTotalMB(tt.meminfo); got != tt.want {
			t.Errorf("memTotalMB(%q) = %d, want %d", tt.meminfo, got, tt.want)
		}
	}
	if got := MaxHashMB(); got < 1 {
		t.Errorf("MaxHashMB() = %d", got)
	}
}
