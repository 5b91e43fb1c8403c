package csipgs

import (
	"errors"
	"slices"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/rules"
)

// The methods in this file serve a search (rules.Checker and rules.Engine:
// InCheck, Tactical and Eval). The core's 26 piece types are placeholders
// worth 1 centipawn each (PieceSpec.Value) with no movement to speak of, so
// the core evaluation counts almost nothing; Eval cancels that count and scores what
// the designs make of the position: each piece by its design's movement,
// the reserves, the treasuries, and the pressure on the enemy royals.

// Evaluation terms, in centipawns.
const (
	corePieceValue = 1     // the core's value of every type (cancelled by the Eval hook)
	royalWin       = 20000 // a royal in a move's gain when its capture ends the game
	royalExtra     = 200   // a royal's capture when its side keeps another one
	reserveShare   = 80    // a reserve piece with room to be placed counts this percentage of its value
	stuckShare     = 50    // a reserve piece beyond the free squares next to the royals
	zorkmidValue   = 45    // a zorkmid in the treasury
	pushPerStep    = 3     // a non-royal piece, per square nearer the enemy royal
	mopEdge        = 20    // per half square the lone enemy royal stands from the centre
	mopNear        = 10    // per square the own royal is nearer the lone enemy royal
	royalShare     = 50    // a royal piece counts this percentage of its movement

	// The movement of a design is valued on package eval's scale.
	mobilityCP     = eval.MobilityCP    // centipawns per unit of effective mobility
	riderDiscount  = eval.RiderDiscount // each further step of a rider
	modeOnly       = eval.ModeOnly      // a move-only or capture-only vector
	colourBoundMul = eval.ColorBound    // a colour-bound design
)

// movementValue returns the engine's value of a design's movement in
// centipawns: its effective mobility on an empty board of the given size,
// averaged over the squares, on package eval's scale (62 centipawns a
// move; a rider's k-th step counts 0.7^(k-1), a move-only or capture-only
// vector 0.6; a rider's step that a leap of the design gives counts only
// with the leap; 0.9 for a colour-bound design; half for a design that
// cannot move forward). On 8x8 the Knight is worth 326, the Bishop 331,
// the Rook 502, the Queen 870, the FIDE pawn 90.
func movementValue(legs []leg, colourBound bool, files, ranks int) int {
	total := 0.0
	for f := 0; f < files; f++ {
		for r := 0; r < ranks; r++ {
			for _, l := range legs {
				w := 1.0
				x, y := f, r
				for step := 1; ; step++ {
					x += int(l.dx)
					y += int(l.dy)
					if x < 0 || y < 0 || x >= files || y >= ranks {
						break
					}
					// a step a leap of the design gives counts with the leap
					mv := l.mv && l.skipMv>>step&1 == 0
					cp := l.cap && l.skipCap>>step&1 == 0
					switch {
					case mv && cp:
						total += w
					case mv || cp:
						total += w * modeOnly
					}
					if !l.rider {
						break
					}
					w *= riderDiscount
				}
			}
		}
	}
	v := total / float64(files*ranks) * mobilityCP
	if colourBound {
		v *= colourBoundMul
	}
	forward := false
	for _, l := range legs {
		forward = forward || l.dy > 0
	}
	if !forward {
		v /= 2 // it never comes nearer the enemy: a guard at best
	}
	return int(v + 0.5)
}

// Value returns the engine's value in centipawns of the design text in a
// game of variant v: its movement (see the package eval scale), whatever
// its price; 0 for a design v does not accept.
func Value(v *rules.Variant, design string) int {
	z, ok := hooksOfVariant(v)
	if !ok {
		return 0
	}
	c, err := z.internText(design)
	if err != nil {
		return 0
	}
	return c.value
}

// InCheck is the Checker's test: in the action phase, whether a royal of
// the side to move stands attacked (CS-11/CS-12). In the design phase, and
// under royal capture (where check restricts nothing, CS-M5), never: a
// check takes effect when the turn passes, so SAN marks it on the design
// decision that ends the turn.
func (z *csipgs) InCheck(p *rules.Position) bool {
	if p.Phase() != 0 || z.o.royalCapture() {
		return false
	}
	any, _ := z.stateOf(p).royalChecked(p, p.Turn())
	return any
}

// Checked names, for the Checker, the side to move's attacked royals.
func (z *csipgs) Checked(p *rules.Position, dst []geom.Square) []geom.Square {
	st, c := z.stateOf(p), p.Turn()
	for _, s := range p.Pieces(c) {
		if st.isRoyal(p.At(s)) && st.attacked(p, s, c.Other(), nil) {
			dst = append(dst, s)
		}
	}
	return dst
}

// Tactical is the Engine's capture test: a piece move that captures wins the
// victim's value (a royal whose capture ends the game: royalWin).
// Transfers, buys and design changes are quiet.
func (z *csipgs) Tactical(p *rules.Position, m rules.Move) (int, bool) {
	if KindOf(m) != PieceMove || m.Payload()&1 == 0 {
		return 0, false
	}
	st := z.stateOf(p)
	victim := p.At(m.To())
	d := st.designOf(victim)
	if d == nil {
		return 0, true
	}
	if d.royal {
		if st.royals(p, victim.Color()) <= 1 {
			return royalWin, true
		}
		return d.value + royalExtra, true
	}
	return d.value, true
}

// Eval is the Engine's evaluation, for the side to move: the pieces on the board
// by their designs' movement (royals at half, since they may not be
// risked), the reserves at reserveShare percent, the treasuries at
// zorkmidValue a zorkmid, a push of the pieces toward the enemy royals,
// and, against a side with royals alone on the board and nothing in
// reserve, a bonus for driving its royal to the edge. It cancels the
// core's count of the placeholder types.
func (z *csipgs) Eval(p *rules.Position) int {
	st := z.stateOf(p)
	var mat, nonRoyal, onBoard, push [2]int
	var royalSq [2]geom.Square
	royalSq[0], royalSq[1] = geom.NoSquare, geom.NoSquare
	for c := rules.White; c <= rules.Black; c++ {
		for _, s := range p.Pieces(c) {
			if st.isRoyal(p.At(s)) {
				royalSq[c] = s
			}
		}
	}
	w := 0
	for c := rules.White; c <= rules.Black; c++ {
		sign := 1
		if c == rules.Black {
			sign = -1
		}
		w -= sign * corePieceValue * len(p.Pieces(c))
		enemy := royalSq[c.Other()]
		for _, s := range p.Pieces(c) {
			d := st.designOf(p.At(s))
			if d == nil {
				continue
			}
			if d.royal {
				mat[c] += d.value * royalShare / 100
				continue
			}
			mat[c] += d.value
			nonRoyal[c]++
			onBoard[c]++
			if enemy != geom.NoSquare {
				push[c] += pushPerStep * (14 - distance(s, enemy))
			}
		}
		mat[c] += z.reserveValue(p, st, c)
		if reserveSize(p, c) > 0 {
			nonRoyal[c]++
		}
		mat[c] += zorkmidValue * max(0, p.Money(c))
		w += sign * (mat[c] + push[c])
	}
	w += z.mopUp(p, royalSq, nonRoyal, onBoard, mat)
	if p.Turn() == rules.Black {
		w = -w
	}
	return w
}

// reserveValue values colour c's reserve: the pieces, best first, that
// the empty squares next to c's royals could take count reserveShare
// percent of their value, the others stuckShare percent (a reserve
// behind a walled-in royal is worth less).
func (z *csipgs) reserveValue(p *rules.Position, st *state, c rules.Color) int {
	var buf [MaxPiecesPerSide]int
	vals := reserveValues(p, st, c, &buf)
	if len(vals) == 0 {
		return 0
	}
	room := z.transferRoom(p, st, c)
	v := 0
	for i, x := range vals {
		if i < room {
			v += x * reserveShare / 100
		} else {
			v += x * stuckShare / 100
		}
	}
	return v
}

// reserveValues fills buf with the values of colour c's reserve pieces,
// best first, and returns them.
func reserveValues(p *rules.Position, st *state, c rules.Color, buf *[MaxPiecesPerSide]int) []int {
	n := 0
	for t := 1; t <= 26; t++ {
		d := st.table[t]
		if d == nil {
			continue
		}
		for range p.Pocket(c, rules.Type(t)) {
			if n < len(buf) {
				buf[n] = d.value
				n++
			}
		}
	}
	vals := buf[:n]
	slices.SortFunc(vals, func(a, b int) int { return b - a })
	return vals
}

// transferRoom counts the empty squares next to colour c's royals (each
// once): where reserve pieces could be placed.
func (z *csipgs) transferRoom(p *rules.Position, st *state, c rules.Color) int {
	b := p.Variant().Board()
	var seen geom.Set
	n := 0
	for _, s := range p.Pieces(c) {
		if !st.isRoyal(p.At(s)) {
			continue
		}
		for _, t := range neighbours(s) {
			if b.Contains(t) && p.At(t) == rules.Empty && !seen.Has(t) {
				seen.Add(t)
				n++
			}
		}
	}
	return n
}

// mopUp rewards the side with more material and pieces on the board,
// when the other has nothing but royals on the board and nothing in
// reserve, for driving the enemy royal to the edge and bringing its own
// near, White's view.
func (z *csipgs) mopUp(p *rules.Position, royalSq [2]geom.Square, nonRoyal, onBoard, mat [2]int) int {
	b := p.Variant().Board()
	for c := rules.White; c <= rules.Black; c++ {
		o := c.Other()
		if nonRoyal[o] != 0 || onBoard[c] == 0 || mat[c] <= mat[o]+200 || royalSq[o] == geom.NoSquare {
			continue
		}
		ks := royalSq[o]
		cf, cr := b.Files-1, b.Ranks-1
		dx, dy := absInt(2*ks.File()-cf), absInt(2*ks.Rank()-cr)
		bonus := mopEdge * max(dx, dy)
		if own := royalSq[c]; own != geom.NoSquare {
			bonus += mopNear * (16 - distance(own, ks))
		}
		if c == rules.Black {
			return -bonus
		}
		return bonus
	}
	return 0
}

// distance is the number of king steps between two squares.
func distance(a, b geom.Square) int {
	return max(absInt(a.File()-b.File()), absInt(a.Rank()-b.Rank()))
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ActionsOnly returns a copy of p in which the design phase offers only
// "no change" ("&-"), for a search that decides the actions and leaves
// the design decision to ChooseDesign. The copy keeps p's history; its
// positions hash as p's do, so a search table must not mix the two.
func ActionsOnly(p *rules.Position) (*rules.Position, error) {
	if _, ok := ensure(p); !ok {
		return nil, ErrNotCsipgs
	}
	q := p.Clone()
	z, _ := ensure(q)
	z.stateOf(q).actionsOnly = true
	return q, nil
}

// slotScoreTop is how many of the best designs count in a slot set's score.
const slotScoreTop = 4

// MinDesignGain is the score a design change must gain over the slots as
// they are for ChooseDesign to make it.
const MinDesignGain = 5

// ChooseDesign returns the design decision an engine makes in p, which
// must be in the design phase: among the design moves (the type table,
// the game's catalogue, and the designs the engine generates and prices,
// GeneratedDesigns, each into the first slot of each letter), the one
// that leaves the mover the slots with the best score (the first such in
// the order of LegalMoves, then of the generated designs), if that score
// is more than MinDesignGain above the score of the slots as they are;
// otherwise "no change". A slot set scores, over its designs that are not
// royal, the sum of the best four value-for-money ratios (Value divided
// by the price, rounded down; a design of the same value and price as one
// counted, K and WF, counts once) plus a tenth of the greatest Value
// (rounded down), so that cheap strong pieces come into the slots without
// losing the strongest one. A generated design is not among LegalMoves;
// the move is legal all the same (Position.Playable, the Unlisted hook).
func ChooseDesign(p *rules.Position) (rules.Move, error) {
	z, ok := ensure(p)
	if !ok {
		return rules.NoMove, ErrNotCsipgs
	}
	if p.Phase() != 1 {
		return rules.NoMove, ErrNotDesignPhase
	}
	st := z.stateOf(p)
	us := p.Turn()
	buf := z.getBuf()
	defer z.putBuf(buf)
	*buf = p.LegalMoves(*buf)
	now := z.slotScore(st.slotDesigns(us, -1, nil))
	best, bestScore := passMove(), now
	consider := func(m rules.Move, slot int, d *compiled) {
		if sc := z.slotScore(st.slotDesigns(us, slot, d)); sc > bestScore {
			best, bestScore = m, sc
		}
	}
	for _, m := range *buf {
		if KindOf(m) != Redesign {
			continue
		}
		slot, l, id := designFields(m)
		d := st.table[l]
		if id != 0 {
			d = z.design(id)
		}
		if d != nil {
			consider(m, slot, d)
		}
	}
	for _, d := range z.generated() {
		if st.letterOf(d) != 0 {
			continue // in the type table: listed above
		}
		for slot := range st.slots[us] {
			if !st.firstSlot(us, slot) {
				continue
			}
			if free := st.freeLetter(p, us, slot); free != 0 {
				if m := designMove(slot, free, d.id); st.validDesign(p, m) {
					consider(m, slot, d)
				}
			}
		}
	}
	if bestScore <= now+MinDesignGain {
		return passMove(), nil
	}
	return best, nil
}

// generatedPowers are the powers GeneratedDesigns combines.
var generatedPowers = []string{
	"W", "F", "D", "A", "H", "G", "N", "L", "vN", "sN", "ffN", "fsN",
	"fR", "sR", "bR", "mR", "cR", "fB", "bB", "mB", "fmW", "fcF",
}

// generatedPerPrice is how many generated designs GeneratedDesigns keeps
// at each price.
const generatedPerPrice = 2

// GeneratedDesigns returns the designs the engine generates for v besides
// its catalogue: every combination of one to three of generatedPowers,
// priced by the rules and valued by its movement, keeping at each price
// the generatedPerPrice designs with the best value, in order of price.
func GeneratedDesigns(v *rules.Variant) []PriceInfo {
	z, ok := hooksOfVariant(v)
	if !ok {
		return nil
	}
	var out []PriceInfo
	for _, c := range z.generated() {
		out = append(out, Info(c.design, z.po))
	}
	return out
}

// generated returns the generated designs of GeneratedDesigns, compiled
// (once per variant instance).
func (z *csipgs) generated() []*compiled {
	z.genOnce.Do(func() {
		type cand struct {
			text  string
			value int
		}
		byPrice := map[int][]cand{}
		n := len(generatedPowers)
		f, r := z.o.size()
		try := func(text string) {
			d, err := ParseDesignWith(text, z.po)
			if err != nil {
				return
			}
			price := PriceOf(d, z.po)
			if price < 1 || price > 12 {
				return
			}
			byPrice[price] = append(byPrice[price], cand{text: text, value: movementValue(compileLegs(d.Vectors())[0], d.ColorBound(), f, r)})
		}
		for i := 0; i < n; i++ {
			try(generatedPowers[i])
			for j := i + 1; j < n; j++ {
				try(generatedPowers[i] + generatedPowers[j])
				for k := j + 1; k < n; k++ {
					try(generatedPowers[i] + generatedPowers[j] + generatedPowers[k])
				}
			}
		}
		prices := make([]int, 0, len(byPrice))
		for pr := range byPrice {
			prices = append(prices, pr)
		}
		slices.Sort(prices)
		for _, pr := range prices {
			cs := byPrice[pr]
			slices.SortStableFunc(cs, func(a, b cand) int { return b.value - a.value })
			for _, x := range cs[:min(len(cs), generatedPerPrice)] {
				c, err := z.internText(x.text)
				if err == nil {
					z.gen = append(z.gen, c)
				}
			}
		}
	})
	return z.gen
}

// ErrNotDesignPhase is returned by ChooseDesign and DesignMove for a
// position that waits for an action.
var ErrNotDesignPhase = errors.New("csipgs: not the design phase")

// slotDesigns returns the designs in c's slots, slot replaced by d (slot
// -1: none replaced).
func (st *state) slotDesigns(c rules.Color, slot int, d *compiled) []*compiled {
	var out []*compiled
	for i, l := range st.slots[c] {
		x := st.table[l]
		if i == slot {
			x = d
		}
		if x != nil {
			out = append(out, x)
		}
	}
	return out
}

// slotScore scores a slot set for ChooseDesign.
func (z *csipgs) slotScore(ds []*compiled) int {
	var ratios []int
	top := 0
	seen := map[[2]int]bool{} // designs of one value and price count once (K and WF)
	for _, d := range ds {
		k := [2]int{d.value, d.price}
		if d.royal || seen[k] || d.price <= 0 {
			continue
		}
		seen[k] = true
		ratios = append(ratios, d.value/d.price)
		top = max(top, d.value)
	}
	slices.SortFunc(ratios, func(a, b int) int { return b - a })
	sc := top / 10
	for _, r := range ratios[:min(len(ratios), slotScoreTop)] { // the best slotScoreTop
		sc += r
	}
	return sc
}
