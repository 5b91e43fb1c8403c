package rules

// LegalByTest exposes the slow legal-move filter (pseudo-legal moves, each
// made and tested) so tests can compare it with LegalMoves.
func LegalByTest(p *Position, dst []Move) []Move { return p.legalByTest(dst, true) }

// CheckLists verifies the piece lists, counts and royal squares against the
// board and returns a description of the first inconsistency, or "".
func CheckLists(p *Position) string {
	var count [2][MaxTypes + 1]int16
	seen := 0
	for _, s := range p.v.board.Squares() {
		pc := p.board[s]
		if !pc.IsPiece() {
			continue
		}
		c := pc.Color()
		count[c][pc.Type()]++
		seen++
		i := int(p.index[s])
		if i >= p.n[c] || p.list[c][i] != s {
			return "piece on " + s.String() + " is not in its list"
		}
	}
	if seen != p.n[0]+p.n[1] {
		return "list length differs from the board"
	}
	if count != p.count {
		return "type counts differ from the board"
	}
	return ""
}
