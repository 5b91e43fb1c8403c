// Package vtest gives tests of several packages the built-in data
// variants (chess, Great Shatranj, Chatrang) in a registry of their own,
// without the variants of Go packages that package catalog adds.
package vtest

import "github.com/anychess/anychess/variant"

// Builtins returns a new registry of the built-in data variants. It panics
// only if an embedded variant file is broken, which package variant's
// tests rule out.
func Builtins() *variant.Registry {
	r := variant.NewRegistry()
	if err := variant.AddBuiltins(r); err != nil {
		panic(err)
	}
	return r
}
