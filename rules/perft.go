package rules

// Perft counts the leaf nodes of the tree of legal moves of the given
// depth. Positions where the game is over by an immediate rule (no legal
// move, a bare king) have no moves; history rules are ignored. It
// allocates one move buffer for the whole tree.
//
// In a variant with chance (Variant.Chance) an edge of the tree is a move
// with one of its outcomes: a Vazir capture that may fail counts twice,
// once as a hit and once as a failed try, and each decision of a turn (a
// try after a failed one, the extra king move) is one level.
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	buf := make([]Move, MaxMoves*depth)
	return perft(p, depth, buf)
}

func perft(p *Position, depth int, buf []Move) uint64 {
	if p.immediateEnd() {
		return 0
	}
	moves := p.LegalMoves(buf[:0:MaxMoves])
	if p.v.h.chance != nil {
		return perftChance(p, depth, moves, buf[MaxMoves:])
	}
	if depth == 1 {
		return uint64(len(moves))
	}
	rest := buf[MaxMoves:]
	var n uint64
	for _, m := range moves {
		p.Make(m)
		n += perft(p, depth-1, rest)
		p.Unmake()
	}
	return n
}

// perftChance is perft below a position of a variant with chance: every
// outcome of every move is an edge.
func perftChance(p *Position, depth int, moves, rest []Move) uint64 {
	var n uint64
	for _, m := range moves {
		outs := len(p.Outcomes(m))
		if depth == 1 {
			n += uint64(outs)
			continue
		}
		for k := range outs {
			p.MakeOutcome(m, k)
			n += perft(p, depth-1, rest)
			p.Unmake()
		}
	}
	return n
}

// Divide returns the legal moves and the perft count below each.
func Divide(p *Position, depth int) ([]Move, []uint64) {
	if depth <= 0 || p.immediateEnd() {
		return nil, nil
	}
	moves := p.LegalMoves(nil)
	counts := make([]uint64, len(moves))
	for i, m := range moves {
		for k := range p.Outcomes(m) {
			p.MakeOutcome(m, k)
			counts[i] += Perft(p, depth-1)
			p.Unmake()
		}
	}
	return moves, counts
}

// immediateEnd reports whether the game is over by a rule other than "no
// legal move": a captured royal, a bare king, or the variant's Ender.
func (p *Position) immediateEnd() bool {
	v := p.v
	if h := v.h.end; h != nil {
		if st, ok := h.End(p); ok {
			return st.Over()
		}
	}
	us := p.turn
	if v.royalMask == 0 {
		return false
	}
	rc := p.royalCount(us)
	return rc == 0 || v.spec.End.BareKing != None && p.n[us] == rc
}
