package csipgs

import (
	"slices"
	"strings"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// state is the variant state of a position: the type table (which design
// each type letter names), the design slots of both players, the 50-move
// counter of the csipgs rule, the terrain each player has seen (moderated
// games), and the undo log of the hooks.
type state struct {
	z     *csipgs
	table [27]*compiled   // [letter-'A'+1]; nil: the letter names no design
	slots [2][Slots]uint8 // letters; 0: hidden (a view under HideEconomy)
	hm    int32           // actions since the last capture, transfer or pawn-design move
	seen  [2]geom.Set     // terrain squares each player has seen (moderated)
	// hidden counts, in a view, the pieces of each colour and type on the
	// board that the view does not show (known from the public economy:
	// buys and transfers are announced, and a player sees its own
	// captures); Determinize places them. Zero outside views and under
	// HideEconomy.
	hidden [2][27]uint8
	// actionsOnly makes the design phase offer "no change" alone: a
	// search that decides the design apart (ActionsOnly).
	actionsOnly bool

	log    []frame
	tables [][27]*compiled // type tables before design moves
	seens  [][2]geom.Set   // seen terrain before moves of moderated games
}

// frame is what AfterUnmake needs for one move.
type frame struct {
	hm   int32
	slot int8 // design move: the slot changed, or -1; its type table was pushed
	old  uint8
	seen bool // seen terrain was pushed
}

// startState returns the state of the start position (CS-2).
func (z *csipgs) startState() *state {
	st := &state{z: z}
	for i, c := range z.initial {
		l := InitialDesigns[i].Letter
		st.table[l-'A'+1] = c
		st.slots[0][i] = l - 'A' + 1
		st.slots[1][i] = l - 'A' + 1
	}
	return st
}

// stateOf returns the state of p, installing the start state in a position
// the core made without one (Variant.Start, ParsePlainFEN). The start
// state hashes to zero, so the position key does not change.
func (z *csipgs) stateOf(p *rules.Position) *state {
	if st, ok := p.State().(*state); ok {
		return st
	}
	st := z.startState()
	p.SetState(st)
	if z.o.Moderated {
		z.updateSeen(p, st)
	}
	return st
}

// Clone returns a deep copy.
func (s *state) Clone() rules.State {
	c := *s
	c.log = append([]frame(nil), s.log...)
	c.tables = append([][27]*compiled(nil), s.tables...)
	c.seens = append([][2]geom.Set(nil), s.seens...)
	return &c
}

// rawHash mixes the type table and the slots.
func (s *state) rawHash() uint64 {
	var h uint64
	for l, c := range s.table {
		if c != nil {
			h ^= rules.Mix64(uint64(l)<<32 | uint64(c.id) | 1<<60)
		}
	}
	for c := range 2 {
		for i, l := range s.slots[c] {
			h ^= rules.Mix64(uint64(l) | uint64(i)<<8 | uint64(c+1)<<16 | 1<<59)
		}
	}
	return h
}

// Hash returns the key of the state (zero for the start state). The
// 50-move counter and the seen terrain are not part of it, as the core
// leaves the move counters out of the position key.
func (s *state) Hash() uint64 { return s.rawHash() ^ s.z.defaultHash }

// String returns the designs and the type table as csipgs-FEN writes them.
func (s *state) String() string {
	return s.designsField() + " " + s.tableField()
}

func (s *state) designsField() string {
	var sb strings.Builder
	for c := range 2 {
		if c == 1 {
			sb.WriteByte('/')
		}
		l := s.slotLetters(rules.Color(c))
		sb.Write(l[:])
	}
	return sb.String()
}

func (s *state) tableField() string {
	var sb strings.Builder
	sb.WriteByte('{')
	first := true
	for l := 1; l <= 26; l++ {
		if c := s.table[l]; c != nil {
			if !first {
				sb.WriteByte(',')
			}
			first = false
			sb.WriteByte(byte('A' + l - 1))
			sb.WriteByte('=')
			sb.WriteString(c.text)
		}
	}
	sb.WriteByte('}')
	return sb.String()
}

// hiddenSlot is the letter of a slot a view does not show (HideEconomy).
const hiddenSlot = '?'

// slotLetter returns the text of a slot's letter: 'A'..'Z', or hiddenSlot.
func slotLetter(l uint8) byte {
	if l == 0 {
		return hiddenSlot
	}
	return 'A' + l - 1
}

// slotLetters returns the text of colour c's slots.
func (s *state) slotLetters(c rules.Color) [Slots]byte {
	var out [Slots]byte
	for i, l := range s.slots[c] {
		out[i] = slotLetter(l)
	}
	return out
}

// firstSlot reports whether slot is the first of colour c's slots to hold
// its letter: the slot a design change of that letter addresses (the
// first slot of a letter stands for all), and the one a buy of the letter
// is listed for. A hidden slot is none.
func (s *state) firstSlot(c rules.Color, slot int) bool {
	l := s.slots[c][slot]
	return l != 0 && !slices.Contains(s.slots[c][:slot], l)
}

// slotOf returns the first of colour c's slots that holds the letter l,
// or -1.
func (s *state) slotOf(c rules.Color, l uint8) int {
	return slices.Index(s.slots[c][:], l)
}

// designOf returns the design of the piece pc, or nil.
func (s *state) designOf(pc rules.Piece) *compiled {
	t := pc.Type()
	if t == 0 || t > 26 {
		return nil
	}
	return s.table[t]
}

// referenced returns the letters in use: in a slot (but skip, a slot
// index of colour skipC, or -1), on the board or in a reserve.
func (s *state) referenced(p *rules.Position, skipC rules.Color, skip int) (used [27]bool) {
	for c := range 2 {
		for i, l := range s.slots[c] {
			if rules.Color(c) == skipC && i == skip {
				continue
			}
			used[l] = true
		}
		for t := 1; t <= 26; t++ {
			if p.Count(rules.Color(c), rules.Type(t)) > 0 || p.Pocket(rules.Color(c), rules.Type(t)) > 0 {
				used[t] = true
			}
		}
	}
	return used
}
