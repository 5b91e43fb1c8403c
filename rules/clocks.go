package rules

// SetClocks sets the move-rule counter (Halfmove) and the ply count (Ply),
// for hooks whose moves the core cannot count: a variant move that
// captures, or one that takes back the move before it. Unmake restores
// both. MakeOutcome counts the turn after its hooks: when the side to move
// changes it adds one to each (the move-rule counter only if the core saw
// no capture or pawn move), so a MakeSpecial or AfterMake hook that wants
// the counters h and n once the turn has passed sets h-1 and n-1.
func (p *Position) SetClocks(halfmove, ply int) {
	p.halfmove, p.ply = halfmove, ply
}
