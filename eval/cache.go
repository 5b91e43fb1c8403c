package eval

import (
	"sync/atomic"

	"github.com/anychess/anychess/rules"
)

// cacheBits is the log2 of the number of scores a cache keeps (16 bytes
// each: a table of 1 MiB).
const cacheBits = 16

// cacheValid marks a slot's data as a stored score (an empty slot's data
// is 0).
const cacheValid = 1 << 32

// cache keeps the scores Evaluate computed, by the position's hash, so
// that a position met again (a transposition, quiescence's positions in
// the next iteration) is not evaluated again. The score is a function of
// what the hash holds (the board, the pieces' ranks, the side to move) when
// the variant has no evaluation hook of its own (rules.Engine, Terms); the
// evaluator keeps one only then (see usesCache). The threads of a search
// share it without locks: a slot holds the key xor the data beside the
// data, so that a slot half written by another thread fails the key's
// test.
type cache struct {
	slots []cacheSlot
}

// cacheSlot is one stored score: key is the position's hash xor data, data
// the score (its low 32 bits) and cacheValid.
type cacheSlot struct {
	key, data atomic.Uint64
}

// newCache returns an empty cache.
func newCache() *cache {
	return &cache{slots: make([]cacheSlot, 1<<cacheBits)}
}

// probe returns the score stored for the hash key, if any.
func (c *cache) probe(key uint64) (int, bool) {
	s := &c.slots[key&(1<<cacheBits-1)]
	d := s.data.Load()
	if d&cacheValid == 0 || s.key.Load()^d != key {
		return 0, false
	}
	return int(int32(uint32(d))), true
}

// store keeps the score v for the hash key, in place of what its slot
// held; a score beyond 32 bits is not kept.
func (c *cache) store(key uint64, v int) {
	if v != int(int32(v)) {
		return
	}
	d := uint64(uint32(int32(v))) | cacheValid
	s := &c.slots[key&(1<<cacheBits-1)]
	s.key.Store(key ^ d)
	s.data.Store(d)
}

// usesCache reports whether e's scores depend on nothing but what a
// position's hash holds, so that a cache may keep them: the variant adds
// no evaluation of its own (rules.Engine's Eval, or its Terms weighed).
func (e *Evaluator) usesCache() bool {
	return e.extra == nil && !e.termOn
}

// Evaluate scores p in centipawns from the side to move's point of view:
// the score the cache keeps for p's hash, or else evaluate's, then kept.
func (e *Evaluator) Evaluate(p *rules.Position) int {
	return e.EvaluateState(p, nil)
}

// EvaluateState is Evaluate for a search thread whose network state st
// (NetState) it uses and updates: with a network, a thread's evaluations
// one after another update its sums by the pieces that moved. The score
// is the same as Evaluate's. With st nil, a network's sums are computed
// afresh.
func (e *Evaluator) EvaluateState(p *rules.Position, st *NetState) int {
	c := e.cacheOf()
	if c == nil {
		return e.evaluateNet(p, st)
	}
	key := p.Hash()
	if v, ok := c.probe(key); ok {
		return v
	}
	v := e.evaluateNet(p, st)
	c.store(key, v)
	return v
}

// evaluateNet is evaluate with the network's correction, if e has one
// and each side has a piece besides its king: a lone king is the mop-up's,
// which the weights' terms drive to the mate and a teacher's games hardly
// reach (NetCorrects).
func (e *Evaluator) evaluateNet(p *rules.Position, st *NetState) int {
	if e.net == nil || !NetCorrects(p) {
		return e.evaluate(p)
	}
	if st == nil {
		var fresh NetState
		st = &fresh
	}
	return e.evaluate(p) + e.net.score(p, e.netT, st)
}

// cacheOf returns e's cache, made at the first call (an evaluator built
// only for its values has none), or nil where e keeps none.
func (e *Evaluator) cacheOf() *cache {
	if c := e.cache.Load(); c != nil || !e.usesCache() {
		return c
	}
	e.cache.CompareAndSwap(nil, newCache())
	return e.cache.Load()
}

// NetCorrects reports whether a network corrects the evaluation of p:
// whether each side has more than one piece.
func NetCorrects(p *rules.Position) bool {
	return len(p.Pieces(rules.White)) > 1 && len(p.Pieces(rules.Black)) > 1
}
