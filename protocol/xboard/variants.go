package xboard

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/anychess/anychess/betza"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// XBoard's piece types, in the order of its -pieceToCharTable option. A
// setup command maps each FEN letter to one of them: the letter written at
// position i of the table is the piece of type i. The table may be shorter
// than XBoard's full list; its last letter is always the King, and the types
// it leaves out do not take part. The first 21 types (P through U) are the
// same in every XBoard since 4.4; later ones differ between versions, so
// they are used only when a variant has more piece types than that.
const (
	slotPawn   = 0
	slotKnight = 1
	slotBishop = 2
	slotRook   = 3
	slotQueen  = 4
	slotFerz   = 5  // Advisor image
	slotAlfil  = 6  // Elephant image
	slotAngel  = 7  // Archbishop (B+N)
	slotMarsh  = 8  // Chancellor (R+N)
	slotWazir  = 9  // Wazir / Gold
	slotMan    = 10 // Commoner (a non-royal King)
	slotCard   = 13 // Crowned Bishop image
	slotDragon = 14 // Crowned Rook image
	slotGrass  = 15 // Grasshopper slot; Great Shatranj's General
	slotSilver = 16 // Great Shatranj's Minister
	numSlots   = 43 // non-royal types of XBoard 4.9 (44 with the King)
	stableSlot = 21 // slots below this exist in every XBoard since 4.4
)

// slotLetters are XBoard's default FEN letters of the stable slots.
const slotLetters = "PNBRQFEACWMOHIJGDVLSU"

// orthodox are the canonical Betza strings of XBoard's built-in chess
// pieces, by slot: a piece that moves so needs no piece command there.
var orthodox = map[int]string{slotKnight: "N", slotBishop: "B", slotRook: "R", slotQueen: "Q"}

// preferred puts pieces with these canonical movements on the slot whose
// image suits them. The Great Shatranj entries reproduce XBoard's own table
// for its variant great ("PN....E...S..HWGMK", also used by Sjaak II), so
// the pieces look as they do there; the Chatrang Elephant (jB) gets the
// Elephant image.
var preferred = map[string]int{
	"F":   slotFerz,
	"FA":  slotAlfil,
	"jB":  slotAlfil,
	"A":   slotAlfil,
	"BN":  slotAngel,
	"RN":  slotMarsh,
	"W":   slotWazir,
	"K":   slotMan,
	"FNA": slotCard,
	"WD":  slotDragon,
	"KDA": slotGrass,
	"WDN": slotSilver,
}

// xboardNames are the names under which built-in variants are offered when
// their own name will not do. XBoard plays chess as "normal" and Great
// Shatranj as "great" itself; "greatshatranj" cannot be offered, because
// XBoard reads any name containing "shatranj" as its Shatranj (backend.c,
// StringToVariant), so the engine-defined form of Great Shatranj is
// "greatshat".
//
// Shatranj and Capablanca chess are XBoard's own variants under those
// names, with the same letters and start positions (Fairy-Stockfish
// follows XBoard in them): they are offered under their names alone.
var xboardNames = map[string][]string{
	"chess":         {"normal"},
	"chess960":      {"fischerandom"},
	"greatshatranj": {"great", "greatshat"},
	"shatranj":      {"shatranj"},
	"capablanca":    {"capablanca"},
}

// XBoardNames returns the names under which v is offered to XBoard in the
// variants feature: its XBoard name if XBoard plays it itself, and a name
// XBoard does not know for the engine-defined form, which the setup command
// describes (see SetupCommands). A variant without an entry in the built-in
// table is offered under its own name, or the first alias that XBoard would
// not mistake for one of its variants.
func XBoardNames(v *rules.Variant) []string {
	if names, ok := xboardNames[v.Name()]; ok {
		return append([]string(nil), names...)
	}
	if !xboardKnows(v.Name()) {
		return []string{v.Name()}
	}
	for _, a := range v.Spec().Aliases {
		if !xboardKnows(a) {
			return []string{a}
		}
	}
	return []string{v.Name()}
}

// unsupported says why XBoard cannot play v, or "" if it can: moves
// decided by chance (XBoard has no way to report an outcome), or moves of
// the variant's own kinds, which XBoard's move syntax cannot carry.
func unsupported(v *rules.Variant) string {
	_, ownText := v.Ext().(rules.MoveText)
	switch {
	case v.Chance():
		return "has moves decided by chance, whose outcome XBoard cannot report"
	case ownText:
		return "has moves that XBoard's move syntax cannot carry"
	}
	return ""
}

// lookupVariant resolves a name sent by "variant": a name from XBoardNames or
// any name or alias the registry knows, optionally behind XBoard's board-size
// prefix ("10x8+0_greatshat"), which must then match the board.
func lookupVariant(reg *variant.Registry, name string) (*rules.Variant, error) {
	size, name := splitSize(name)
	var found *rules.Variant
	for _, v := range reg.Variants() {
		for _, n := range XBoardNames(v) {
			if strings.EqualFold(n, name) && found == nil {
				found = v
			}
		}
	}
	if found == nil {
		v, err := reg.Get(name)
		if err != nil {
			return nil, err
		}
		found = v
	}
	if why := unsupported(found); why != "" {
		return nil, fmt.Errorf("%s %s; play it over UCI", found.Name(), why)
	}
	if size != "" {
		b := found.Board()
		if size != fmt.Sprintf("%dx%d+0", b.Files, b.Ranks) && size != fmt.Sprintf("%dx%d", b.Files, b.Ranks) {
			return nil, fmt.Errorf("%s is played on %dx%d without holdings, not %s", found.Name(), b.Files, b.Ranks, size)
		}
	}
	return found, nil
}

// splitSize splits XBoard's optional board-size prefix ("10x8+0_") off a
// variant name.
func splitSize(name string) (size, rest string) {
	i := strings.IndexByte(name, '_')
	if i <= 0 {
		return "", name
	}
	w, h, ok := strings.Cut(name[:i], "x")
	if !ok || !digits(w) {
		return "", name
	}
	if hh, hold, ok := strings.Cut(h, "+"); ok {
		if !digits(hh) || !digits(hold) {
			return "", name
		}
	} else if !digits(h) {
		return "", name
	}
	return name[:i], name[i+1:]
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// XBoard's variant names (common.h, VARIANT_NAMES, 4.9 and later). It finds
// the names before "shogi" anywhere in a name, the others only at its start
// and not followed by a letter.
var (
	xboardOld = []string{"normal", "wildcastle", "nocastle", "fischerandom", "bughouse", "crazyhouse", "losers",
		"suicide", "giveaway", "twokings", "kriegspiel", "atomic", "3check", "shatranj", "wild29", "wild30", "wild31",
		"wild32", "wild33", "wild34", "wild35", "wild36"}
	xboardNew = []string{"shogi", "chu", "courier", "gothic", "capablanca", "knightmate", "fairy", "cylinder",
		"falcon", "caparandom", "berolina", "janus", "super", "great", "twilight", "makruk", "seirawan", "grand",
		"spartan", "xiangqi", "asean", "lion", "elven", "janggi", "duck", "chuchess", "unknown"}
)

// xboardKnows reports whether XBoard reads name as one of its own variants
// (following StringToVariant in its backend.c) rather than as an
// engine-defined one.
func xboardKnows(name string) bool {
	_, name = splitSize(name)
	e := strings.ToLower(name)
	for _, n := range xboardOld {
		if strings.Contains(e, n) {
			return true
		}
	}
	for _, n := range xboardNew {
		if strings.HasPrefix(e, n) && (len(e) == len(n) || !isLetter(e[len(n)])) {
			return true
		}
	}
	if strings.Contains(e, "fischer") && strings.Contains(e, "random") || strings.Contains(e, "wild/fr") ||
		strings.Contains(e, "frc") || strings.Contains(e, "960") {
		return true
	}
	// "wild" or "w" followed by a number is an ICS wild variant.
	for _, w := range []string{"wild", "w"} {
		if i := strings.Index(e, w); i >= 0 {
			rest := strings.TrimLeft(e[i+len(w):], " (/")
			return rest != "" && '0' <= rest[0] && rest[0] <= '9'
		}
	}
	return false
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// SetupCommands returns what the engine sends XBoard after "variant name"
// selected v. For a variant XBoard plays itself ("normal", "great") these are
// piece commands for the pieces whose moves XBoard's own would get wrong
// (none for chess), as Fairy-Max does. For an engine-defined name (and for
// the anychess names of a variant that has one, such as "greatshatranj")
// they are a setup command, giving the piece-to-char table, the board size with parent
// variant fairy and the start position, followed by the piece commands. For
// Chatrang:
//
//	setup (PN.RQ.BKpn.rq.bk) 8x8+0_fairy rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1
//	piece Q& QN
//	piece B& yafFtgafFgafmF
//	piece P& fmWfcF
//
// The table maps each FEN letter to one of XBoard's piece types (and so to
// its image): position i of the table is type i of XBoard's list (P N B R Q
// F E A C W M O H I J G D V L S U ...), '.' for types not used, and the last
// letter of each half is the King. A piece command "piece X& BETZA" gives the
// moves of the piece with letter X for both colours (see XBetza).
//
// XBoard's Betza cannot say everything anychess's can. The Chatrang
// Elephant (jB: it skips the first square, is blocked there by an enemy it
// could capture, and never captures an Elephant) is sent as the two-leg
// description of skipRider, "yafFtgafFgafmF", which XBoard gets right except
// that it allows captures of Elephants and passing enemies other than
// Elephants (moves the engine answers with "Illegal move", which XBoard takes
// back) and does not know captures beyond an enemy Elephant on the first
// square. The Great Shatranj pieces are plain leapers and exact.
func SetupCommands(v *rules.Variant, name string) []string {
	_, name = splitSize(name)
	builtin, defined := false, false
	for _, n := range XBoardNames(v) {
		known := xboardKnows(n)
		defined = defined || !known
		builtin = builtin || known && strings.EqualFold(n, name)
	}
	slots, king := assignSlots(v)
	var out []string
	if defined && !builtin {
		out = append(out, setupLine(v, slots, king, "fairy", v.StartFEN()))
	}
	slotOf := make(map[rules.Type]int)
	for i, t := range slots {
		if t != 0 {
			slotOf[t] = i
		}
	}
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		desc, ok := pieceDesc(v, t, t == king, slotOf[t])
		if ok {
			out = append(out, fmt.Sprintf("piece %c& %s", v.Letter(t), desc))
		}
	}
	return out
}

// PositionSetup returns what the engine sends XBoard after "setboard fen"
// in a variant that "variant name" selected: for an engine-defined name, two
// setup commands with fen as the start position, under the parent variants
// unknown and then fairy, and the piece commands again; nil otherwise.
//
// XBoard takes the position of a setup command only while the game has no
// moves, and, once it has a start position of its own (one it loaded at
// start-up with -lpf, or the first setup's), only from a setup that
// changes the board size or the parent variant. Its answer to the first
// setup, which comes after it has loaded a position file, replaces that
// position by the variant's start; the engine meanwhile received the loaded
// position by setboard. The two setups give XBoard the position back (the
// first changes the parent to unknown, the second back to fairy, each
// taking its position), so that XBoard, the engine and a second engine
// play from the position XBoard loaded.
func PositionSetup(v *rules.Variant, name, fen string) []string {
	cmds := SetupCommands(v, name)
	if len(cmds) == 0 || !strings.HasPrefix(cmds[0], "setup ") {
		return nil
	}
	slots, king := assignSlots(v)
	return append([]string{setupLine(v, slots, king, "unknown", fen), setupLine(v, slots, king, "fairy", fen)}, cmds[1:]...)
}

// setupLine writes the setup command of an engine-defined variant.
func setupLine(v *rules.Variant, slots []rules.Type, king rules.Type, parent, fen string) string {
	var white, black strings.Builder
	for _, t := range slots {
		if t == 0 {
			white.WriteByte('.')
			black.WriteByte('.')
			continue
		}
		white.WriteByte(v.Letter(t))
		black.WriteByte(lower(v.Letter(t)))
	}
	if king != 0 {
		white.WriteByte(v.Letter(king))
		black.WriteByte(lower(v.Letter(king)))
	} else {
		white.WriteByte('.')
		black.WriteByte('.')
	}
	b := v.Board()
	holdings := 0
	if v.Spec().Drops {
		for t := 1; t <= v.NumTypes(); t++ {
			if !v.Royal(rules.Type(t)) {
				holdings++
			}
		}
	}
	return fmt.Sprintf("setup (%s%s) %dx%d+%d_%s %s", white.String(), black.String(), b.Files, b.Ranks, holdings, parent, fen)
}

// pieceDesc returns the XBoard Betza description of type t and whether it
// must be sent: pieces that move exactly like XBoard's piece of their slot
// (a royal King, a chess pawn, N, B, R, Q) need none.
func pieceDesc(v *rules.Variant, t rules.Type, royal bool, slot int) (string, bool) {
	mv := v.Movement(t)
	canon := mv.String()
	desc := XBetza(mv)
	if t == v.Pawn() {
		pw := v.Spec().Pawn
		fromStart := pw.StepRanks == nil || len(pw.StepRanks) == 1 && pw.StepRanks[0] == 2
		if canon == "fmWfcF" && pw.DoubleStep && pw.EnPassant && fromStart {
			return "", false
		}
		if pw.DoubleStep {
			desc += "ifmnD"
		}
		if pw.EnPassant {
			desc += "feF"
		}
		return desc, true
	}
	if royal {
		return desc, canon != "K" || v.PieceSpec(t).CannotCapture != ""
	}
	if o, ok := orthodox[slot]; ok && o == canon && v.PieceSpec(t).CannotCapture == "" {
		return "", false
	}
	return desc, true
}

// assignSlots gives every piece type of v an XBoard piece type: the royal
// piece the King (returned apart), the pawn the Pawn, pieces that move like
// N, B, R, Q those, then pieces with a preferred image, then the slot whose
// default letter is the piece's letter, then the first free slot. The slice
// is indexed by slot; 0 marks a slot that is not used.
func assignSlots(v *rules.Variant) ([]rules.Type, rules.Type) {
	var table [numSlots]rules.Type
	var king rules.Type
	done := make(map[rules.Type]bool)
	put := func(t rules.Type, slot int) bool {
		if slot < 0 || slot >= numSlots || table[slot] != 0 || done[t] {
			return false
		}
		table[slot] = t
		done[t] = true
		return true
	}
	n := v.NumTypes()
	for t := rules.Type(1); int(t) <= n; t++ {
		if v.Royal(t) && king == 0 {
			king = t
			done[t] = true
		}
	}
	if p := v.Pawn(); p != 0 && !done[p] {
		put(p, slotPawn)
	}
	for t := rules.Type(1); int(t) <= n; t++ {
		canon := v.Movement(t).String()
		for slot, o := range orthodox {
			if o == canon {
				put(t, slot)
			}
		}
	}
	for t := rules.Type(1); int(t) <= n; t++ {
		if slot, ok := preferred[v.Movement(t).String()]; ok {
			put(t, slot)
		}
	}
	for t := rules.Type(1); int(t) <= n; t++ {
		if i := strings.IndexByte(slotLetters, v.Letter(t)); i >= 0 {
			put(t, i)
		}
	}
	for t := rules.Type(1); int(t) <= n; t++ {
		for slot := slotFerz; slot < numSlots && !done[t]; slot++ {
			put(t, slot)
		}
	}
	last := 0
	for i, t := range table {
		if t != 0 {
			last = i + 1
		}
	}
	return append([]rules.Type(nil), table[:last]...), king
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// XBetza writes a movement in the Betza notation XBoard reads in piece
// commands. It differs from anychess's own in the order of the modifiers
// (XBoard reads the direction letters first, then m or c, then n, then j, and
// i only at the very start of a component), in naming oblique directions by
// a pair of letters per move ("rf" is the move one file right and two ranks
// forward, "fr" two files right and one forward), in writing riders with a
// range number (0 for unlimited: N0 is the nightrider) and in the atoms of the
// camel and the zebra (C and Z; anychess also reads L and J). The lame (n)
// and initial (i) modifiers are passed on as they are, XBoard's meaning being
// close to anychess's (its n tests one square in the middle of the leap; its
// i means a piece that has not moved). An unlimited rider that skips its
// first square (j) becomes two-leg moves (see skipRider); a limited one keeps
// j, which XBoard reads as skipping the first square whatever stands there.
func XBetza(m betza.Movement) string {
	type key struct {
		atom  int // index in atomOrder
		rng   uint8
		flags betza.Flags
	}
	type group struct {
		key
		modes map[betza.Vector]betza.Mode
	}
	var groups []*group
	find := func(k key) *group {
		for _, g := range groups {
			if g.key == k {
				return g
			}
		}
		g := &group{key: k, modes: make(map[betza.Vector]betza.Mode)}
		groups = append(groups, g)
		return g
	}
	for _, l := range m.Legs {
		a := atomIndex(l.Vector)
		if a < 0 {
			continue
		}
		g := find(key{a, l.Range, l.Flags})
		g.modes[l.Vector] |= l.Mode
	}
	// Sort by atom, then range, then flags, for a stable output.
	for i := 1; i < len(groups); i++ {
		for j := i; j > 0 && lessKey(groups[j].key.atom, groups[j].rng, groups[j].flags, groups[j-1].key.atom, groups[j-1].rng, groups[j-1].flags); j-- {
			groups[j], groups[j-1] = groups[j-1], groups[j]
		}
	}
	type comp struct {
		atom  int
		rng   uint8
		flags betza.Flags
		mode  betza.Mode
		dirs  []betza.Vector
	}
	var comps []comp
	for _, g := range groups {
		for _, mode := range []betza.Mode{betza.Move | betza.Capture, betza.Move, betza.Capture} {
			var dirs []betza.Vector
			for _, d := range atomDirs(g.atom) {
				if g.modes[d] == mode {
					dirs = append(dirs, d)
				}
			}
			if len(dirs) > 0 {
				comps = append(comps, comp{g.atom, g.rng, g.flags, mode, dirs})
			}
		}
	}
	full := func(c comp) bool { return len(c.dirs) == len(atomDirs(c.atom)) }
	dirsOf := func(c comp) string {
		if full(c) {
			return ""
		}
		return dirLetters(c.atom, c.dirs)
	}
	var sb strings.Builder
	used := make([]bool, len(comps))
	for i, c := range comps {
		if used[i] {
			continue
		}
		used[i] = true
		letter := atomLetters[c.atom]
		if c.atom == 0 && full(c) {
			// W with a matching full F is a K (or Q for riders).
			for j := i + 1; j < len(comps); j++ {
				d := comps[j]
				if !used[j] && d.atom == 1 && d.rng == c.rng && d.flags == c.flags && d.mode == c.mode && full(d) {
					used[j] = true
					letter = "K"
					break
				}
			}
		}
		if c.flags&betza.Skip != 0 && c.rng == 0 {
			sb.WriteString(skipRider(c.flags&betza.Initial != 0, dirsOf(c), c.mode, letter))
			continue
		}
		if c.flags&betza.Initial != 0 {
			sb.WriteByte('i')
		}
		sb.WriteString(dirsOf(c))
		switch c.mode {
		case betza.Move:
			sb.WriteByte('m')
		case betza.Capture:
			sb.WriteByte('c')
		}
		if c.flags&betza.Lame != 0 {
			sb.WriteByte('n')
		}
		if c.flags&betza.Skip != 0 {
			sb.WriteByte('j')
		}
		if c.flags&betza.Hop != 0 {
			sb.WriteByte('p') // XBoard's hopper, as the xiangqi cannon's cpR
		}
		switch {
		case c.rng == 0 && letter == "W":
			sb.WriteString("R")
		case c.rng == 0 && letter == "F":
			sb.WriteString("B")
		case c.rng == 0 && letter == "K":
			sb.WriteString("Q")
		case c.rng == 0:
			sb.WriteString(letter + "0")
		case c.rng > 1:
			sb.WriteString(letter + strconv.Itoa(int(c.rng)))
		default:
			sb.WriteString(letter)
		}
	}
	return sb.String()
}

// skipRider writes an unlimited rider that skips the first square of each
// line (anychess's j, the Chatrang Elephant's jB) as XBoard two-leg moves: a
// leap to the first square and, from there, a ride straight on (XBoard's g
// and y on a first leg turn the leaper of the second leg into a rider). The
// first square may be empty (y), hold a friend (tg: t keeps enemies out), or
// hold an enemy (g) if the move then ends on an empty square. anychess lets
// the piece pass an enemy only if it could not capture it (an Elephant past
// an enemy Elephant); XBoard cannot tell, so it gets the passing moves that
// do not capture: never a move or a capture it would wrongly refuse, apart
// from a capture beyond an enemy the piece may not take, and never an attack
// the piece does not make. (XBoard's own j on a slider skips the first square
// whatever stands there, which makes it see checks through a piece that
// blocks the line, and forfeit the engine for moves out of them.)
func skipRider(initial bool, dirs string, mode betza.Mode, letter string) string {
	i := ""
	if initial {
		i = "i"
	}
	m := ""
	switch mode {
	case betza.Move:
		m = "m"
	case betza.Capture:
		m = "c"
	}
	out := i + dirs + "yaf" + m + letter + i + dirs + "tgaf" + m + letter
	if mode&betza.Move != 0 {
		out += i + dirs + "gafm" + letter
	}
	return out
}

// atomLetters are XBoard's letters of the atoms, in anychess's print order.
var atomLetters = []string{"W", "F", "D", "N", "A", "H", "C", "Z", "G"}

// atomLeaps are the (long, short) leaps of the atoms in atomLetters.
var atomLeaps = [][2]int{{1, 0}, {1, 1}, {2, 0}, {2, 1}, {2, 2}, {3, 0}, {3, 1}, {3, 2}, {3, 3}}

func atomIndex(v betza.Vector) int {
	x, y := abs(int(v.DX)), abs(int(v.DY))
	if x < y {
		x, y = y, x
	}
	for i, l := range atomLeaps {
		if l[0] == x && l[1] == y {
			return i
		}
	}
	return -1
}

// atomDirs lists the directions of an atom in a fixed order.
func atomDirs(atom int) []betza.Vector {
	a, b := int8(atomLeaps[atom][0]), int8(atomLeaps[atom][1])
	vec := func(x, y int8) betza.Vector { return betza.Vector{DX: x, DY: y} }
	switch {
	case b == 0:
		return []betza.Vector{vec(0, a), vec(0, -a), vec(-a, 0), vec(a, 0)} // f b l r
	case a == b:
		return []betza.Vector{vec(a, a), vec(-a, a), vec(a, -a), vec(-a, -a)} // fr fl br bl
	}
	return []betza.Vector{vec(b, a), vec(-b, a), vec(a, b), vec(-a, b), vec(a, -b), vec(-a, -b), vec(b, -a), vec(-b, -a)}
}

func lessKey(a1 int, r1 uint8, f1 betza.Flags, a2 int, r2 uint8, f2 betza.Flags) bool {
	if a1 != a2 {
		return a1 < a2
	}
	if r1 != r2 {
		return r1 < r2
	}
	return f1 < f2
}

// dirLetters writes the direction modifiers of a component that does not go
// every way its atom goes, in the form XBoard's parser reads.
func dirLetters(atom int, dirs []betza.Vector) string {
	has := make(map[betza.Vector]bool)
	for _, d := range dirs {
		has[d] = true
	}
	a, b := int8(atomLeaps[atom][0]), int8(atomLeaps[atom][1])
	var sb strings.Builder
	switch {
	case b == 0: // orthogonal: single letters, which XBoard adds up
		f, bk, l, r := has[betza.Vector{DX: 0, DY: a}], has[betza.Vector{DX: 0, DY: -a}], has[betza.Vector{DX: -a}], has[betza.Vector{DX: a}]
		switch {
		case f && bk:
			sb.WriteByte('v')
		case f:
			sb.WriteByte('f')
		case bk:
			sb.WriteByte('b')
		}
		switch {
		case l && r:
			sb.WriteByte('s')
		case l:
			sb.WriteByte('l')
		case r:
			sb.WriteByte('r')
		}
	case a == b: // diagonal: a lone f, b, l or r is a pair of moves
		fr, fl, br, bl := has[betza.Vector{DX: a, DY: a}], has[betza.Vector{DX: -a, DY: a}], has[betza.Vector{DX: a, DY: -a}], has[betza.Vector{DX: -a, DY: -a}]
		if fr && fl {
			sb.WriteByte('f')
			fr, fl = false, false
		}
		if br && bl {
			sb.WriteByte('b')
			br, bl = false, false
		}
		if fl && bl {
			sb.WriteByte('l')
			fl, bl = false, false
		}
		if fr && br {
			sb.WriteByte('r')
			fr, br = false, false
		}
		for _, x := range []struct {
			on bool
			s  string
		}{{fr, "fr"}, {fl, "fl"}, {br, "br"}, {bl, "bl"}} {
			if x.on {
				sb.WriteString(x.s)
			}
		}
	default: // oblique: one pair per move
		for _, d := range dirs {
			narrow := abs(int(d.DY)) > abs(int(d.DX))
			v := "f"
			if d.DY < 0 {
				v = "b"
			}
			h := "r"
			if d.DX < 0 {
				h = "l"
			}
			if narrow {
				sb.WriteString(h + v)
			} else {
				sb.WriteString(v + h)
			}
		}
	}
	return sb.String()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
