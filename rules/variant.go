package rules

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/anychess/anychess/betza"
	"github.com/anychess/anychess/geom"
)

// ErrSpec is wrapped by every error Compile returns.
var ErrSpec = errors.New("invalid variant")

// Variant is a compiled, immutable variant. Positions point to it. It is safe
// for concurrent use.
type Variant struct {
	spec  Spec
	board geom.Board

	types    []typeInfo // index 0 is unused
	byLetter [128]Type  // upper-case letter -> type

	moves  [2][]moveSet // [colour][type]
	probes [2]probeSet  // attacks by [colour]

	royalMask  uint64
	royalTypes []Type
	pawn       Type
	doubleStep bool
	enPassant  bool
	initRanks  [2][MaxTypes + 1]uint16 // ranks (bit per rank) where 'i' moves start
	cannot     [MaxTypes + 1]uint64    // [attacker] victim types it may not capture
	immuneTo   [MaxTypes + 1]uint64    // [victim] attacker types that may not capture it
	immunity   bool

	promoZone   [2]geom.Set
	promoTypes  []Type
	promoLimit  [MaxTypes + 1]int // 0: no limit
	mustPromote [2]geom.Set       // squares of the zone where a pawn must promote
	toHand      bool              // captures go to the capturer's reserve

	castling   bool
	castleRook Type
	kingFile   [2]int
	rookFile   [2]int

	dead          [][2]string
	deadSameColor uint64

	// The rules that take the slow path (slow): moves generated one by
	// one and attacks found piece by piece.
	slow       bool
	hop        bool               // some leg hops (betza p)
	hasRegion  uint64             // types with a region
	region     [2][]geom.Set      // [colour][type] squares it may go to
	hasZone    uint64             // types with a zone movement
	zone       [2][]geom.Set      // [colour][type] squares where it moves so
	zmoves     [2][]moveSet       // [colour][type] its movement there
	flying     bool               // royal pieces may not face each other
	promoTo    [MaxTypes + 1]Type // [type] what the piece may promote to (shogi)
	demote     [MaxTypes + 1]Type // [type] what a promoted piece was
	immobile   bool               // no move or drop to a dead square
	deadSq     [2][]geom.Set      // [colour][type] squares it could never leave
	noDoubled  uint64             // types not dropped on a file holding one
	noDropMate uint64             // types whose drop may not mate

	h     hooks // the optional interfaces of spec.Ext
	z     zobrist
	start *Position
}

type typeInfo struct {
	spec     PieceSpec
	movement betza.Movement
}

// leg is one compiled movement component for one colour.
type leg struct {
	off   int // mailbox offset of one step
	max   int // number of steps; 1 for a leap
	mode  betza.Mode
	flags betza.Flags
	path  [2]int // lame leaps: offsets from the origin that must be empty (0: unused)
	dx    int8
	dy    int8
}

// moveSet is the compiled movement of one type for one colour.
type moveSet struct {
	leaps   []leg // single leaps without flags
	rides   []leg // riders without flags
	special []leg // legs with flags (lame, initial, skip)
}

const (
	probeLeap uint8 = iota
	probeRide
	probeLame
	probeSkip
)

// probe finds attackers of a square: step from the target by off (toward
// the attacker) and look for one of types.
type probe struct {
	kind    uint8
	initial bool // the leg is an 'i' move: the attacker must be on an initial rank
	off     int
	max     int
	types   uint64
	path    [2]int // lame: offsets from the target that must be empty
}

type probeSet struct {
	leaps   []probe
	rides   []probe
	complex []probe // lame and skip
}

// Compile checks s and builds the variant. Errors wrap ErrSpec and say what
// is wrong.
func Compile(s Spec) (*Variant, error) {
	v, err := compile(s)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrSpec, s.Name, err)
	}
	return v, nil
}

func compile(s Spec) (*Variant, error) {
	if s.Name == "" {
		return nil, errors.New("no name")
	}
	b, err := geom.NewBoard(s.Files, s.Ranks)
	if err != nil {
		return nil, err
	}
	for _, h := range s.Holes.Squares() {
		if !b.OnGrid(h) {
			return nil, fmt.Errorf("hole %v is off the board", h)
		}
	}
	b.Holes = s.Holes
	v := &Variant{spec: s, board: b, h: findHooks(s.Ext)}
	if len(s.Pieces) == 0 {
		return nil, errors.New("no pieces")
	}
	if len(s.Pieces) > MaxTypes {
		return nil, fmt.Errorf("%d piece types; at most %d", len(s.Pieces), MaxTypes)
	}
	v.types = make([]typeInfo, 1, len(s.Pieces)+1)
	for _, ps := range s.Pieces {
		if ps.Letter < 'A' || ps.Letter > 'Z' {
			return nil, fmt.Errorf("piece %q: letter %q is not an upper-case letter A-Z", ps.Name, ps.Letter)
		}
		if v.byLetter[ps.Letter] != 0 {
			return nil, fmt.Errorf("piece letter %c is used twice", ps.Letter)
		}
		m, err := betza.Parse(ps.Betza)
		if err != nil {
			return nil, fmt.Errorf("piece %c (%s): %v", ps.Letter, ps.Name, err)
		}
		t := Type(len(v.types))
		v.types = append(v.types, typeInfo{spec: ps, movement: m})
		v.byLetter[ps.Letter] = t
		if ps.Royal {
			v.royalMask |= 1 << t
			v.royalTypes = append(v.royalTypes, t)
		}
	}
	for t := 1; t < len(v.types); t++ {
		for _, l := range []byte(v.types[t].spec.CannotCapture) {
			u := v.byLetter[upper(l)]
			if u == 0 {
				return nil, fmt.Errorf("piece %c: cannot_capture names unknown piece %c", v.types[t].spec.Letter, l)
			}
			v.cannot[t] |= 1 << u
			v.immuneTo[u] |= 1 << t
			v.immunity = true
		}
	}
	if err := v.compilePawn(); err != nil {
		return nil, err
	}
	if err := v.compilePromotion(); err != nil {
		return nil, err
	}
	if err := v.compileCastling(); err != nil {
		return nil, err
	}
	if s.CapturesToHand {
		if !s.Drops {
			return nil, errors.New("captures to hand need drops")
		}
		v.toHand = true
	}
	if err := v.compileEnd(); err != nil {
		return nil, err
	}
	if err := v.compileExotic(); err != nil {
		return nil, err
	}
	v.compileMoves()
	v.compileProbes()
	v.z = newZobrist(len(v.types))

	start, err := v.parseFEN(s.Start)
	if err != nil {
		return nil, fmt.Errorf("start position: %v", err)
	}
	v.computeInitRanks(start)
	v.start = start
	return v, nil
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func (v *Variant) compilePawn() error {
	ps := v.spec.Pawn
	if ps.Letter == 0 {
		if ps.DoubleStep || ps.EnPassant {
			return errors.New("pawn rules without a pawn letter")
		}
		return nil
	}
	v.pawn = v.byLetter[upper(ps.Letter)]
	if v.pawn == 0 {
		return fmt.Errorf("pawn letter %c is not a piece", ps.Letter)
	}
	if v.royalMask&(1<<v.pawn) != 0 {
		return errors.New("the pawn cannot be royal")
	}
	v.doubleStep = ps.DoubleStep
	v.enPassant = ps.EnPassant
	if ps.EnPassant && !ps.DoubleStep {
		return errors.New("en passant needs the pawn double step")
	}
	for _, r := range ps.StepRanks {
		if r < 1 || r > v.board.Ranks {
			return fmt.Errorf("pawn double-step rank %d is off the board", r)
		}
	}
	return nil
}

func (v *Variant) compilePromotion() error {
	ps := v.spec.Promotion
	if len(ps.Ranks) == 0 {
		if ps.Pieces != "" || len(ps.Limits) > 0 || len(ps.MandatoryRanks) > 0 {
			return errors.New("promotion pieces without promotion ranks")
		}
		return nil
	}
	piecePromo := false
	for _, t := range v.types[1:] {
		piecePromo = piecePromo || t.spec.PromotesTo != 0
	}
	if piecePromo && ps.Pieces == "" && len(ps.Limits) == 0 && len(ps.MandatoryRanks) == 0 && !ps.Mandatory {
		// The zone of pieces that promote (PieceSpec.PromotesTo) alone.
		return v.addPromoZone(ps.Ranks)
	}
	if v.pawn == 0 {
		return errors.New("promotion needs a pawn")
	}
	if ps.Pieces == "" {
		return errors.New("promotion ranks without promotion pieces")
	}
	if err := v.addPromoZone(ps.Ranks); err != nil {
		return err
	}
	for _, l := range []byte(ps.Pieces) {
		t := v.byLetter[upper(l)]
		if t == 0 {
			return fmt.Errorf("promotion piece %c is not a piece", l)
		}
		if t == v.pawn || v.royalMask&(1<<t) != 0 {
			return fmt.Errorf("a pawn cannot promote to %c", l)
		}
		if slices.Contains(v.promoTypes, t) {
			return fmt.Errorf("promotion piece %c is listed twice", l)
		}
		v.promoTypes = append(v.promoTypes, t)
	}
	for l, n := range ps.Limits {
		t := v.byLetter[upper(l)]
		if t == 0 || !slices.Contains(v.promoTypes, t) {
			return fmt.Errorf("promotion limit for %c, which is not a promotion piece", l)
		}
		if n < 1 {
			return fmt.Errorf("promotion limit for %c must be at least 1", l)
		}
		v.promoLimit[t] = n
	}
	if ps.Mandatory {
		v.mustPromote = v.promoZone
	}
	for _, r := range ps.MandatoryRanks {
		if !slices.Contains(ps.Ranks, r) {
			return fmt.Errorf("mandatory promotion rank %d is not a promotion rank", r)
		}
		for f := 0; f < v.board.Files; f++ {
			v.mustPromote[White].Add(geom.Sq(f, r-1))
			v.mustPromote[Black].Add(geom.Sq(f, v.board.Ranks-r))
		}
	}
	return nil
}

func (v *Variant) compileCastling() error {
	cs := v.spec.Castling
	if !cs.Enabled {
		return nil
	}
	if len(v.royalTypes) != 1 {
		return errors.New("castling needs exactly one royal piece type")
	}
	v.castleRook = v.byLetter[upper(cs.Rook)]
	if v.castleRook == 0 {
		return fmt.Errorf("castling piece %q is not a piece", cs.Rook)
	}
	for i := range 2 {
		if cs.KingFiles[i] < 0 || cs.KingFiles[i] >= v.board.Files || cs.RookFiles[i] < 0 || cs.RookFiles[i] >= v.board.Files {
			return errors.New("castling files are off the board")
		}
		if cs.KingFiles[i] == cs.RookFiles[i] {
			return errors.New("king and rook cannot castle to the same file")
		}
	}
	v.castling = true
	v.kingFile = cs.KingFiles
	v.rookFile = cs.RookFiles
	return nil
}

func (v *Variant) compileEnd() error {
	e := v.spec.End
	if e.NMoveRule < 0 || e.NFold < 0 || e.MoveCap < 0 {
		return errors.New("end rule counts cannot be negative")
	}
	if e.NFold == 1 {
		return errors.New("n-fold repetition needs n of at least 2")
	}
	for _, d := range e.Dead {
		w, b, ok := strings.Cut(d, ":")
		if !ok {
			return fmt.Errorf("dead material %q: want two sides such as \"KN:K\"", d)
		}
		var sides [2]string
		for i, side := range []string{w, b} {
			for _, l := range []byte(side) {
				if v.byLetter[upper(l)] == 0 {
					return fmt.Errorf("dead material %q: unknown piece %c", d, l)
				}
			}
			sides[i] = sortedLetters(strings.ToUpper(side))
		}
		v.dead = append(v.dead, sides)
	}
	for _, l := range []byte(e.DeadSameColor) {
		t := v.byLetter[upper(l)]
		if t == 0 {
			return fmt.Errorf("dead same-colour piece %c is not a piece", l)
		}
		v.deadSameColor |= 1 << t
	}
	return nil
}

func sortedLetters(s string) string {
	b := []byte(s)
	sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
	return string(b)
}

// compileMoves turns each type's Betza legs into move tables per colour.
func (v *Variant) compileMoves() {
	for c := White; c <= Black; c++ {
		v.moves[c] = make([]moveSet, len(v.types))
		for t := 1; t < len(v.types); t++ {
			legs := v.types[t].movement.Legs
			if Type(t) == v.pawn && v.doubleStep {
				legs = append(slices.Clone(legs), betza.Leg{Vector: betza.Vector{DX: 0, DY: 2}, Range: 1, Mode: betza.Move, Flags: betza.Initial | betza.Lame})
			}
			v.moves[c][t] = compileLegs(legs, c)
		}
	}
}

// compileLegs merges legs that differ only in mode and orients them for c.
func compileLegs(legs []betza.Leg, c Color) moveSet {
	var out []leg
	for _, l := range legs {
		dx, dy := l.DX, l.DY
		if c == Black {
			dx, dy = -dx, -dy
		}
		mx := int(l.Range)
		if mx == 0 {
			mx = geom.MaxFiles + geom.MaxRanks
		}
		g := leg{off: geom.Offset(int(dx), int(dy)), max: mx, mode: l.Mode, flags: l.Flags, dx: dx, dy: dy}
		if l.Flags&betza.Lame != 0 {
			g.path = lamePath(dx, dy)
		}
		merged := false
		for i := range out {
			o := &out[i]
			if o.off == g.off && o.max == g.max && o.flags == g.flags {
				o.mode |= g.mode
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, g)
		}
	}
	var ms moveSet
	for _, g := range out {
		switch {
		case g.flags != 0:
			ms.special = append(ms.special, g)
		case g.max == 1:
			ms.leaps = append(ms.leaps, g)
		default:
			ms.rides = append(ms.rides, g)
		}
	}
	return ms
}

func sign(x int8) int8 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// lamePath returns the squares a lame leap passes, as offsets from its
// origin: the squares between for straight leaps, and for the knight the
// orthogonal neighbour in the direction of the long leg.
func lamePath(dx, dy int8) [2]int {
	var p [2]int
	ax, ay := dx, dy
	if ax < 0 {
		ax = -ax
	}
	if ay < 0 {
		ay = -ay
	}
	if ax == 0 || ay == 0 || ax == ay {
		n := max(ax, ay)
		ux, uy := sign(dx), sign(dy)
		for k := int8(1); k < n && k <= 2; k++ {
			p[k-1] = geom.Offset(int(ux*k), int(uy*k))
		}
		return p
	}
	if ay > ax {
		p[0] = geom.Offset(0, int(sign(dy)))
	} else {
		p[0] = geom.Offset(int(sign(dx)), 0)
	}
	return p
}

// compileProbes groups every capturing leg by the way it reaches a target.
func (v *Variant) compileProbes() {
	for c := White; c <= Black; c++ {
		var all []probe
		for t := 1; t < len(v.types); t++ {
			ms := v.moves[c][t]
			for _, group := range [][]leg{ms.leaps, ms.rides, ms.special} {
				for _, l := range group {
					if l.mode&betza.Capture == 0 || l.flags&betza.Hop != 0 {
						continue // hoppers are found by the slow path
					}
					pr := probe{off: -l.off, max: l.max, types: 1 << t, initial: l.flags&betza.Initial != 0}
					switch {
					case l.flags&betza.Skip != 0:
						pr.kind = probeSkip
					case l.flags&betza.Lame != 0:
						pr.kind = probeLame
						for i, po := range l.path {
							if po != 0 {
								pr.path[i] = -l.off + po
							}
						}
					case l.max == 1:
						pr.kind = probeLeap
					default:
						pr.kind = probeRide
					}
					merged := false
					for i := range all {
						a := &all[i]
						if a.kind == pr.kind && a.initial == pr.initial && a.off == pr.off && a.max == pr.max && a.path == pr.path {
							a.types |= pr.types
							merged = true
							break
						}
					}
					if !merged {
						all = append(all, pr)
					}
				}
			}
		}
		for _, pr := range all {
			switch {
			case pr.initial:
				v.probes[c].complex = append(v.probes[c].complex, pr)
			case pr.kind == probeLeap:
				v.probes[c].leaps = append(v.probes[c].leaps, pr)
			case pr.kind == probeRide:
				v.probes[c].rides = append(v.probes[c].rides, pr)
			default:
				v.probes[c].complex = append(v.probes[c].complex, pr)
			}
		}
	}
}

// computeInitRanks records, for each type and colour, the ranks on which it
// stands in the start position: its 'i' moves start there. The pawn's
// double step uses the configured ranks if there are any.
func (v *Variant) computeInitRanks(start *Position) {
	for _, sq := range v.board.Squares() {
		pc := start.board[sq]
		if pc.IsPiece() {
			v.initRanks[pc.Color()][pc.Type()] |= 1 << sq.Rank()
		}
	}
	if v.pawn != 0 && len(v.spec.Pawn.StepRanks) > 0 {
		v.initRanks[White][v.pawn], v.initRanks[Black][v.pawn] = 0, 0
		for _, r := range v.spec.Pawn.StepRanks {
			v.initRanks[White][v.pawn] |= 1 << (r - 1)
			v.initRanks[Black][v.pawn] |= 1 << (v.board.Ranks - r)
		}
	}
}

// Name returns the variant's registry name.
func (v *Variant) Name() string { return v.spec.Name }

// Title returns the variant's display name.
func (v *Variant) Title() string {
	if v.spec.Title != "" {
		return v.spec.Title
	}
	return v.spec.Name
}

// Spec returns the specification the variant was compiled from.
func (v *Variant) Spec() Spec { return v.spec }

// Board returns the board geometry.
func (v *Variant) Board() geom.Board { return v.board }

// NumTypes returns the number of piece types; types run from 1 to NumTypes.
func (v *Variant) NumTypes() int { return len(v.types) - 1 }

// TypeOf returns the type with the given FEN letter (either case), or 0.
func (v *Variant) TypeOf(letter byte) Type {
	if letter >= 128 {
		return 0
	}
	return v.byLetter[upper(letter)]
}

// Letter returns the upper-case FEN letter of t.
func (v *Variant) Letter(t Type) byte { return v.types[t].spec.Letter }

// PieceLetter returns the FEN letter of a piece: upper case for White.
func (v *Variant) PieceLetter(p Piece) byte {
	l := v.types[p.Type()].spec.Letter
	if p.Color() == Black {
		l += 'a' - 'A'
	}
	return l
}

// PieceSpec returns the declaration of type t.
func (v *Variant) PieceSpec(t Type) PieceSpec { return v.types[t].spec }

// Movement returns the parsed movement of type t (in White's orientation).
func (v *Variant) Movement(t Type) betza.Movement { return v.types[t].movement }

// Royal reports whether pieces of type t are royal.
func (v *Variant) Royal(t Type) bool { return v.royalMask&(1<<t) != 0 }

// Pawn returns the pawn type, or 0.
func (v *Variant) Pawn() Type { return v.pawn }

// PromotionTypes returns the types a pawn may promote to, in menu order.
func (v *Variant) PromotionTypes() []Type { return slices.Clone(v.promoTypes) }

// PromotionZone reports whether a pawn of colour c promotes on s.
func (v *Variant) PromotionZone(c Color, s geom.Square) bool { return v.promoZone[c].Has(s) }

// CanCapture reports whether a piece of type a may capture one of type b.
func (v *Variant) CanCapture(a, b Type) bool { return v.cannot[a]&(1<<b) == 0 }

// Start returns a new position at the variant's start.
func (v *Variant) Start() *Position { return v.start.Clone() }

// StartFEN returns the start position in FEN.
func (v *Variant) StartFEN() string { return v.start.FEN() }

// Options returns the variant's per-game options (nil if it has none).
func (v *Variant) Options() []Option {
	if h := v.h.options; h != nil {
		return h.Options()
	}
	return nil
}

// PublicOptions returns the options of opts (option name to value, as a
// game record keeps them) that may be published while a game of v is
// played: all but those v's Options mark Secret.
func (v *Variant) PublicOptions(opts map[string]string) map[string]string {
	out := make(map[string]string, len(opts))
	secret := map[string]bool{}
	for _, o := range v.AllOptions() {
		secret[o.Name] = o.Secret
	}
	for k, val := range opts {
		if !secret[k] {
			out[k] = val
		}
	}
	return out
}

// AllOptions returns every per-game option the variant accepts, with its
// value (nil if it has none): the names -opt, UCI's VariantOptions and a
// new game may set, which may be more than the tags Options writes.
func (v *Variant) AllOptions() []Option {
	if h := v.h.options; h != nil {
		return h.AllOptions()
	}
	return v.Options()
}

// HasOption reports whether name is one of the variant's per-game options.
func (v *Variant) HasOption(name string) bool {
	for _, o := range v.AllOptions() {
		if o.Name == name {
			return true
		}
	}
	return false
}

// Configure returns the variant with the per-game options among tags;
// tags that are not options are ignored. A variant without options
// returns itself. The variant returned has v's Face unless the one the
// variant's options build declares its own.
func (v *Variant) Configure(tags map[string]string) (*Variant, error) {
	if h := v.h.options; h != nil {
		c, err := h.Configure(tags)
		if err != nil {
			return nil, err
		}
		if c == nil {
			return nil, fmt.Errorf("%w %q: its options built no variant", ErrSpec, v.spec.Name)
		}
		if c.spec.Face == nil && v.spec.Face != nil {
			c = c.WithFace(v.spec.Face)
		}
		return c, nil
	}
	return v, nil
}

// Face returns the opaque value the variant's Spec attached (Spec.Face),
// or nil.
func (v *Variant) Face() any { return v.spec.Face }

// WithFace returns a copy of v that carries f as its Face. The copy plays
// exactly as v does; its positions point to the copy. v is unchanged.
func (v *Variant) WithFace(f any) *Variant {
	return v.with(func(s *Spec) { s.Face = f })
}

// WithWeights returns a copy of v whose Spec carries w as the engine
// evaluation's weights (Spec.Weights; nil or empty: the hand-set
// evaluation) instead of v's, and no network (Spec.Network, which
// corrects v's own weights). The copy plays exactly as v does; its
// positions point to the copy, and Position.On moves a position of v to
// it. v is unchanged.
func (v *Variant) WithWeights(w map[string]float64) *Variant {
	return v.with(func(s *Spec) { s.Weights, s.Network = w, nil })
}

// with returns a copy of v whose Spec set changed, with a start position
// of its own pointing to the copy.
func (v *Variant) with(set func(*Spec)) *Variant {
	c := *v
	set(&c.spec)
	start := v.start.Clone()
	start.v = &c
	c.start = start
	return &c
}

// SameRules reports whether v and w are one compiled variant: the same
// variant, or copies of one by WithFace and WithWeights, whose positions
// play alike.
func (v *Variant) SameRules(w *Variant) bool {
	return v == w || (v != nil && w != nil && len(v.types) > 0 && len(w.types) > 0 && &v.types[0] == &w.types[0])
}

// Chance reports whether some moves of the variant have several outcomes
// (Position.Outcomes).
func (v *Variant) Chance() bool { return v.h.chance != nil }

// Seeded reports whether the variant's start position is drawn by chance.
func (v *Variant) Seeded() bool { return v.h.setup != nil }

// Setup returns a start position: drawn with r if the variant's start is
// random (Seeded), else the start position.
func (v *Variant) Setup(r Roller) (*Position, error) {
	if h := v.h.setup; h != nil {
		return h.Setup(v, r)
	}
	return v.Start(), nil
}

// addPromoZone adds the promotion ranks (counted from each side's own
// first rank) to both sides' promotion zones.
func (v *Variant) addPromoZone(ranks []int) error {
	for _, r := range ranks {
		if r < 1 || r > v.board.Ranks {
			return fmt.Errorf("promotion rank %d is off the board", r)
		}
		for f := 0; f < v.board.Files; f++ {
			v.promoZone[White].Add(geom.Sq(f, r-1))
			v.promoZone[Black].Add(geom.Sq(f, v.board.Ranks-r))
		}
	}
	return nil
}
