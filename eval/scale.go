package eval

// The scale of piece values from movement, for whoever values movement
// the way the evaluation does (a variant pricing its designs by value):
// an empty board's effective mobility, averaged over its squares, times
// MobilityCP centipawns.
const (
	// MobilityCP is the centipawns one unit of effective mobility is
	// worth.
	MobilityCP = pawnsPerMove
	// RiderDiscount weighs each further step of a rider: its k-th step
	// counts RiderDiscount^(k-1).
	RiderDiscount = riderDiscount
	// ModeOnly weighs a move-only or capture-only move.
	ModeOnly = modeOnly
	// ColorBound multiplies the value of a colour-bound piece.
	ColorBound = colorBound
)
