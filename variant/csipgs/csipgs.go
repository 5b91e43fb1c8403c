package csipgs

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/variant"
)

// Name is the variant's registry name.
const Name = "csipgs"

// Slots is the number of design slots of each player (CS-1).
const Slots = 6

// MaxPiecesPerSide is the limit on pieces on board and in reserve together
// that a buy may not exceed (CS-6c).
const MaxPiecesPerSide = 16

// InitialDesigns are the designs of both players at the start (CS-2), in
// slot order, with their type letters.
var InitialDesigns = [Slots]struct {
	Letter byte
	Design string
}{{'P', "fmWfcF"}, {'R', "R"}, {'N', "N"}, {'B', "B"}, {'K', "royal-K"}, {'Q', "Q"}}

// Catalogue is the default list of designs the design phase offers as
// moves besides the designs already in the game's type table (3.11); the
// option Catalogue replaces it per game. Any other valid design may be
// chosen by its text (DecodeMove, Position.IsLegal), but only catalogue
// designs are in LegalMoves.
var Catalogue = []string{
	"fmWfcF", "R", "N", "B", "royal-K", "Q",
	"FfR", "WD", "FA", "BN", "RN", "NN", "royal-W", "royal-fmG",
	"W", "F", "D", "A", "L", "K", "fR", "WA", "FD", "vN", "cNN", "royal-F",
}

// maxDesigns bounds the designs one variant instance knows (the move
// payload has 13 bits for a design reference).
const maxDesigns = 1<<13 - 1

// leg is one compiled move vector for one colour. A rider's skipMv and
// skipCap have bit k set where a leap of the same design gives the move
// to (or the capture on) the rider's k-th square, so that the move is
// generated once (RD: the D's leap, not the R's second step).
type leg struct {
	off             int
	dx, dy          int8
	rider           bool
	mv, cap         bool
	skipMv, skipCap uint8
}

// maxSkipStep bounds the rider steps a leap can stand for (H and G are
// the third step of R and B).
const maxSkipStep = 7

// compileLegs returns the legs of a move set for White and for Black
// (the vectors turned), with the riders' skips.
func compileLegs(vs []Vector) [2][]leg {
	var out [2][]leg
	for col := range 2 {
		legs := make([]leg, 0, len(vs))
		for _, v := range vs {
			dx, dy := v.DX, v.DY
			if col == 1 {
				dx, dy = -dx, -dy
			}
			legs = append(legs, leg{off: geom.Offset(int(dx), int(dy)), dx: dx, dy: dy, rider: v.Rider, mv: v.Move, cap: v.Capture})
		}
		for i := range legs {
			r := &legs[i]
			if !r.rider {
				continue
			}
			for _, l := range legs {
				if l.rider {
					continue
				}
				for k := 2; k <= maxSkipStep; k++ {
					if int(l.dx) == k*int(r.dx) && int(l.dy) == k*int(r.dy) {
						if l.mv {
							r.skipMv |= 1 << k
						}
						if l.cap {
							r.skipCap |= 1 << k
						}
					}
				}
			}
		}
		out[col] = legs
	}
	return out
}

// compiled is a design known to the variant, with its price and move
// tables. Compiled designs are immutable and shared by every position.
type compiled struct {
	id         uint16 // 1-based index in the registry
	text       string // canonical design text
	design     Design
	price      int
	royal      bool
	relay      bool
	colorBound bool
	pawn       bool // its moves reset the 50-move counter (A-h)
	value      int  // the engine's value of its movement, in centipawns
	legs       [2][]leg
}

// csipgs is the variant's own rules object (rules.Spec.Ext of an open
// game; moderated wraps it for the moderated mode): its methods are the
// rules, over the options and the design registry it holds.
type csipgs struct {
	o       Options
	po      ParseOptions
	weights map[string]float64 // the learned evaluation's, or nil
	board   geom.Board         // the true board with its terrain

	mu      sync.Mutex
	designs atomic.Pointer[[]*compiled] // append-only: index id-1
	byText  map[string]*compiled

	catalogue []*compiled
	initial   [Slots]*compiled
	reset     map[string]bool

	defaultHash uint64 // state hash of the start state, subtracted so it hashes 0

	viewMu sync.Mutex
	views  map[geom.Set]*rules.Variant // variants with the terrain a player knows

	bufs sync.Pool // *[]rules.Move of rules.MaxMoves

	genOnce sync.Once
	gen     []*compiled // the engine's generated designs (generated)
}

// New returns csipgs Chess with the given options.
func New(opts Options) (*rules.Variant, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	z := &csipgs{o: opts, po: opts.parseOptions(), byText: map[string]*compiled{}, views: map[geom.Set]*rules.Variant{}}
	z.bufs.New = func() any { b := make([]rules.Move, 0, rules.MaxMoves); return &b }
	z.designs.Store(&[]*compiled{})
	z.reset = map[string]bool{}
	// The learned evaluation (data/weights/csipgs.toml), if any.
	w, err := variant.WeightsOf("csipgs")
	if err != nil {
		return nil, fmt.Errorf("csipgs: %w", err)
	}
	z.weights = w
	resets := opts.FiftyMoveResetDesigns
	if resets == nil {
		resets = []string{"fmWfcF"}
	}
	for _, d := range resets {
		pd, err := ParseDesignWith(d, z.po)
		if err != nil {
			return nil, fmt.Errorf("%w: FiftyMoveResetDesigns: %w", ErrOption, err)
		}
		z.reset[pd.String()] = true
	}
	for i, d := range InitialDesigns {
		c, err := z.internText(d.Design)
		if err != nil {
			return nil, err
		}
		z.initial[i] = c
	}
	cat := opts.Catalogue
	if cat == nil {
		cat = Catalogue
	}
	for _, d := range cat {
		c, err := z.internText(d)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(z.catalogue, c) {
			z.catalogue = append(z.catalogue, c)
		}
	}
	f, r := opts.size()
	b, err := geom.NewBoard(f, r)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrOption, err)
	}
	for _, s := range opts.Terrain {
		b.Holes.Add(s)
	}
	z.board = b
	z.defaultHash = z.startState().rawHash()
	return z.compile(b.Holes)
}

// spec returns the core declaration for a board with the given holes.
func (z *csipgs) spec(holes geom.Set) rules.Spec {
	f, r := z.o.size()
	pieces := make([]rules.PieceSpec, 26)
	for i := range pieces {
		l := byte('A' + i)
		// The core never moves these pieces: every piece move is
		// generated from the game's designs (the state). "iW" gives the
		// core nothing to generate but for a piece on its start rank,
		// and Generate removes those moves.
		pieces[i] = rules.PieceSpec{Letter: l, Name: "type " + string(l), Betza: "iW", Value: corePieceValue}
	}
	name := "csipgs"
	s := rules.Spec{
		Name:    name,
		Title:   "csipgs Chess",
		Aliases: []string{"csipgs-chess"},
		Description: "Kings alone at the start; each turn a zorkmid of credit, then a move, a transfer from " +
			"reserve next to a royal, or a purchase, then an optional redesign of one of six piece designs " +
			"priced from Betza atoms.",
		Files: f, Ranks: r,
		Holes:  holes,
		Pieces: pieces,
		Start:  startBoard(f, r, holes) + " w - - 0 1",
		End: rules.EndSpec{
			Checkmate: rules.Loss,
			Stalemate: rules.Loss,
			NFold:     3,
			MoveCap:   2 * z.o.MaxTurns,
		},
		Ext:     z,
		Weights: z.weights,
	}
	if z.o.Moderated {
		// Only moderated games hide anything: open games have no views
		// (a server then sends every client everything), nothing to
		// determinize and no moderator.
		s.Ext = moderated{z}
	}
	return s
}

// compile builds the core variant for a board with the given holes.
func (z *csipgs) compile(holes geom.Set) (*rules.Variant, error) {
	v, err := rules.Compile(z.spec(holes))
	if err != nil {
		return nil, fmt.Errorf("csipgs: %w", err)
	}
	return v, nil
}

// hooksOfVariant returns the csipgs behind a variant: its rules object
// (Spec.Ext, plain or moderated).
func hooksOfVariant(v *rules.Variant) (*csipgs, bool) {
	if v == nil {
		return nil, false
	}
	switch x := v.Ext().(type) {
	case *csipgs:
		return x, true
	case moderated:
		return x.csipgs, true
	}
	return nil, false
}

// startBoard returns the FEN board of the start: the two royal Kings and
// the holes.
func startBoard(f, r int, holes geom.Set) string {
	w, b := royalStart(f, r)
	rows := make([]string, r)
	for rank := r - 1; rank >= 0; rank-- {
		row := ""
		empty := 0
		for file := 0; file < f; file++ {
			s := geom.Sq(file, rank)
			var c byte
			switch {
			case s == w:
				c = 'K'
			case s == b:
				c = 'k'
			case holes.Has(s):
				c = '*'
			}
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				row += fmt.Sprint(empty)
				empty = 0
			}
			row += string(c)
		}
		if empty > 0 {
			row += fmt.Sprint(empty)
		}
		rows[r-1-rank] = row
	}
	out := rows[0]
	for _, row := range rows[1:] {
		out += "/" + row
	}
	return out
}

// Options returns the game's option tags. The terrain is Secret: in the
// moderated mode it is hidden until seen (CS-M3).
func (z *csipgs) Options() []rules.Option {
	opts := rules.OptionsOf(z.o.Tags())
	for i := range opts {
		opts[i].Secret = opts[i].Name == "Terrain"
	}
	return opts
}

// AllOptions returns the game's options: its records write them all.
func (z *csipgs) AllOptions() []rules.Option { return z.Options() }

// Configure returns csipgs with z's options changed by the tags.
func (z *csipgs) Configure(tags map[string]string) (*rules.Variant, error) {
	o := z.o
	if err := o.SetTags(tags); err != nil {
		return nil, err
	}
	return New(o)
}

// internText parses, prices and registers a design text.
func (z *csipgs) internText(s string) (*compiled, error) {
	d, err := ParseDesignWith(s, z.po)
	if err != nil {
		return nil, err
	}
	return z.intern(d)
}

// intern registers a parsed design and returns its compiled form.
func (z *csipgs) intern(d Design) (*compiled, error) {
	if d.Relay && !z.o.Relay {
		return nil, fmt.Errorf("%w: design %q: relay designs need the Relay option (3.7 A-g)", ErrDesign, d.String())
	}
	text := d.String()
	z.mu.Lock()
	defer z.mu.Unlock()
	if c, ok := z.byText[text]; ok {
		return c, nil
	}
	old := *z.designs.Load()
	if len(old) >= maxDesigns {
		return nil, fmt.Errorf("%w: more than %d different designs in one game", ErrDesign, maxDesigns)
	}
	c := &compiled{
		id: uint16(len(old) + 1), text: text, design: d,
		price: PriceOf(d, z.po), royal: d.Royal, relay: d.Relay, colorBound: d.ColorBound(),
		pawn: z.reset[text],
	}
	c.legs = compileLegs(d.Vectors())
	f, r := z.o.size()
	c.value = movementValue(c.legs[0], c.colorBound, f, r)
	next := make([]*compiled, len(old), len(old)+1)
	copy(next, old)
	next = append(next, c)
	z.designs.Store(&next)
	z.byText[text] = c
	return c, nil
}

// design returns the compiled design with the given id, or nil.
func (z *csipgs) design(id uint32) *compiled {
	ds := *z.designs.Load()
	if id == 0 || int(id) > len(ds) {
		return nil
	}
	return ds[id-1]
}

// getBuf and putBuf lend move buffers for generation inside hooks.
func (z *csipgs) getBuf() *[]rules.Move  { b := z.bufs.Get().(*[]rules.Move); *b = (*b)[:0]; return b }
func (z *csipgs) putBuf(b *[]rules.Move) { z.bufs.Put(b) }

// hooksOf returns the csipgs behind a position's variant.
func hooksOf(p *rules.Position) (*csipgs, bool) {
	st, ok := p.State().(*state)
	if ok {
		return st.z, true
	}
	return nil, false
}
