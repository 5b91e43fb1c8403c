//go:build unix

package main

import "syscall"

// descriptorBudget returns how many connections the server may hold: the
// process's limit on open files less 100 for the database and the rest,
// at most 100,000; 1,000 if the limit cannot be read.
func descriptorBudget() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur <= 200 {
		return 1000
	}
	return int(min(rl.Cur-100, 100_000))
}
