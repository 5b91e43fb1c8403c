//go:build !unix

package main

// descriptorBudget returns how many connections the server may hold where
// there is no limit on open files to read: 10,000.
func descriptorBudget() int { return 10000 }
