package search

import (
	"os"
	"strconv"
	"strings"
)

// fallbackHashMB is MaxHashMB where the machine's memory cannot be read.
const fallbackHashMB = 4096

// MaxHashMB is the largest transposition table, in megabytes, that the
// protocols let a user ask for (UCI's Hash option, XBoard's memory
// command): the machine's memory, MemTotal in /proc/meminfo, or 4096 where
// that cannot be read.
func MaxHashMB() int {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return fallbackHashMB
	}
	return memTotalMB(string(data))
}

// memTotalMB reads MemTotal, in megabytes, from the text of
// /proc/meminfo; fallbackHashMB if it has none or less than a megabyte.
func memTotalMB(meminfo string) int {
	for _, line := range strings.Split(meminfo, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			if kb, err := strconv.Atoi(f[1]); err == nil && kb >= 1024 {
				return kb / 1024
			}
		}
	}
	return fallbackHashMB
}
