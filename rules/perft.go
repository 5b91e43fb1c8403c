package rules

// Perft counts the leaf nodes of the tree of legal moves of the given
// depth. Positions where the game is over by an immediate rule (no legal
// move, a bare king) have no moves; history rules are ignored. It
// allocates one move buffer for the whole tree.
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

// Divide returns the legal moves and the perft count below each.
func Divide(p *Position, depth int) ([]Move, []uint64) {
	if depth <= 0 || p.immediateEnd() {
		return nil, nil
	}
	moves := p.LegalMoves(nil)
	counts := make([]uint64, len(moves))
	for i, m := range moves {
		p.Make(m)
		counts[i] = Perft(p, depth-1)
		p.Unmake()
	}
	return moves, counts
}

// immediateEnd reports whether the game is over by a rule other than "no
// legal move": a captured royal, a bare king, or the variant's End hook.
func (p *Position) immediateEnd() bool {
	v := p.v
	if h := v.spec.Hooks.End; h != nil {
		if _, ok := h(p); ok {
			return true
		}
	}
	us := p.turn
	if v.royalMask == 0 {
		return false
	}
	rc := p.royalCount(us)
	return rc == 0 || v.spec.End.BareKing != None && p.n[us] == rc
}
