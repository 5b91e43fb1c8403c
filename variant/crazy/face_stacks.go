package crazy

// Stacks reports that a Crazy Chess square may hold a stack of pieces,
// written in brackets in Crazy-FEN (face.Stacker).
func (Face) Stacks() bool { return true }
