package server

import (
	"encoding/json"
	"time"

	"github.com/anychess/anychess/face"
)

// The frames of the WebSocket protocol (docs/protocol.md).

// clientMsg is any frame a client sends; which fields count depends on T.
type clientMsg struct {
	T     string `json:"t"`
	ID    int64  `json:"id,omitempty"`
	Token string `json:"token,omitempty"`
	Since int64  `json:"since,omitempty"`
	Move  string `json:"move,omitempty"`
	V     *int64 `json:"v,omitempty"`
	Offer *bool  `json:"offer,omitempty"`
	// View is read from a hello and ignored: no spectator receives a
	// seat's view of a game with hidden information while it is played
	// (earlier pages asked for one; "white", "black" or empty).
	View string `json:"view,omitempty"`
}

// clockJSON is the clock as frames carry it.
type clockJSON struct {
	WhiteMS int64  `json:"white_ms"`
	BlackMS int64  `json:"black_ms"`
	Running string `json:"running,omitempty"`
	Days    int    `json:"days,omitempty"`
}

// outcomeJSON is one possible outcome of a ply with its probability.
type outcomeJSON struct {
	P     string `json:"p"`
	Label string `json:"label,omitempty"`
	Mark  string `json:"mark,omitempty"`
}

// eventJSON is the body of an event: a ply, an offer, an end, a rematch.
// It is stored as it is and sent in "event" frames.
type eventJSON struct {
	Kind     string        `json:"kind"`
	Seat     string        `json:"seat,omitempty"`
	Ply      int           `json:"ply,omitempty"`
	Move     string        `json:"move,omitempty"`
	SAN      string        `json:"san,omitempty"`
	Outcome  int           `json:"outcome,omitempty"`
	Mark     string        `json:"mark,omitempty"`
	Label    string        `json:"label,omitempty"`
	Outcomes []outcomeJSON `json:"outcomes,omitempty"`
	Roll     int           `json:"roll,omitempty"` // the face of the die a chance ply rolled, 1..Den
	TurnOver bool          `json:"turn_over,omitempty"`
	FEN      string        `json:"fen,omitempty"`
	Board    string        `json:"board,omitempty"`
	Check    string        `json:"check,omitempty"`
	// Events is what the ply did besides its move, in order, as the
	// variant words it (face.DescribePly: the pieces a chain of effects
	// took off the board).
	Events []string `json:"events,omitempty"`
	// Describe is the variant's description of the position after the
	// ply (face.Description), so that a client replays the marks too.
	Describe *face.Description `json:"describe,omitempty"`
	// Removed is read from plies stored before Events: what the ply took
	// off the board, in order. It is not written any more.
	Removed []string   `json:"removed,omitempty"`
	Clock   *clockJSON `json:"clock,omitempty"`
	Offer   string     `json:"offer,omitempty"`
	Result  string     `json:"result,omitempty"`
	Reason  string     `json:"reason,omitempty"`
	Detail  string     `json:"detail,omitempty"`
	Game    string     `json:"game,omitempty"`
	// CreditMS is, in a "resume" event, the time the running clock does
	// not count: the game had no node (a cluster's node died).
	CreditMS int64     `json:"credit_ms,omitempty"`
	At       time.Time `json:"at"`
}

// statusJSON is a game's result.
type statusJSON struct {
	Result string `json:"result"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

// stateFrame is the position as one receiver may see it.
type stateFrame struct {
	T       string            `json:"t"`
	V       int64             `json:"v"`
	FEN     string            `json:"fen"`
	Board   string            `json:"board"`
	Turn    string            `json:"turn"`
	Phase   int               `json:"phase"`
	Counter int               `json:"counter,omitempty"` // decisions already made in this turn (Vazir: tries used)
	Check   string            `json:"check,omitempty"`
	Legal   []string          `json:"legal"`
	Last    []string          `json:"last,omitempty"`
	Clock   clockJSON         `json:"clock"`
	Status  statusJSON        `json:"status"`
	Offer   string            `json:"offer"`
	Money   map[string]int    `json:"money"`
	Pocket  map[string]string `json:"pocket"`
	Visible []string          `json:"visible"`
	Dice    *diceJSON         `json:"dice,omitempty"`
	// Describe is the variant's extra state (face.Description) in the
	// position the receiver sees: its view while a hidden game is played,
	// nothing for a spectator then.
	Describe *face.Description `json:"describe,omitempty"`
	// Chances gives, for the seat to move, each legal move decided by
	// chance with the probability of its first outcome (Vazir: a capture
	// try's success), "num/den".
	Chances map[string]string `json:"chances,omitempty"`
	// Actions describes, for the seat to move, the legal moves that are
	// not a piece's move from one square to another (face.Actions): a
	// button's label and group, or a piece dragged from the reserve. Each
	// is one of Legal; from the seat's view in a hidden game.
	Actions []face.Action `json:"actions,omitempty"`
}

// diceJSON is the fair-dice part of a state: the commitment to the
// game's seed and its generator from the start, the seed and nonce once
// the game is over.
type diceJSON struct {
	Commit string `json:"commit"`
	Gen    string `json:"gen"` // "ChaCha8" (the seed in 64 hex digits) or, in games stored before, "PCG" (in decimal)
	Seed   string `json:"seed,omitempty"`
	Nonce  string `json:"nonce,omitempty"`
}

// eventFrame carries one event.
type eventFrame struct {
	T string          `json:"t"`
	V int64           `json:"v"`
	E json.RawMessage `json:"e"`
}

// welcomeFrame answers hello.
type welcomeFrame struct {
	T       string   `json:"t"`
	Seat    string   `json:"seat"`
	Game    *Summary `json:"game"`
	Version int64    `json:"version"`
}

// ackFrame acknowledges a frame whose event is stored.
type ackFrame struct {
	T  string `json:"t"`
	ID int64  `json:"id"`
	V  int64  `json:"v"`
}

// errorFrame refuses a frame.
type errorFrame struct {
	T       string `json:"t"`
	ID      int64  `json:"id,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// rematchFrame gives one seat its seat in the rematch.
type rematchFrame struct {
	T     string `json:"t"`
	Game  string `json:"game"`
	Seat  string `json:"seat"`
	Token string `json:"token"`
}

// pongFrame answers ping.
type pongFrame struct {
	T  string `json:"t"`
	ID int64  `json:"id,omitempty"`
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own types are marshalled
	}
	return b
}

func errFrame(id int64, code, msg string) []byte {
	return mustJSON(errorFrame{T: "error", ID: id, Code: code, Message: msg})
}
