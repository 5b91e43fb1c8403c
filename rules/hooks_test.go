package rules_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/anychess/anychess/geom"
	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/rules"
)

// These tests build small variants with hooks, the way the Vazir, Crazy
// Chess and csipgs packages plug into the core, and check that the core
// carries them: chance outcomes, several decisions by one side, money,
// reserves and drops, variant state, and per-player views.

func chessSpec(t *testing.T) rules.Spec {
	t.Helper()
	v, err := vtest.Builtins().Get("chess")
	if err != nil {
		t.Fatal(err)
	}
	s := v.Spec()
	s.Name, s.Aliases = "test", nil
	return s
}

func find(t *testing.T, p *rules.Position, from, to string) rules.Move {
	t.Helper()
	b := p.Variant().Board()
	f, _ := b.ParseSquare(from)
	g, _ := b.ParseSquare(to)
	for _, m := range p.LegalMoves(nil) {
		if m.From() == f && m.To() == g {
			return m
		}
	}
	t.Fatalf("%s%s is not legal in %s", from, to, p.FEN())
	return 0
}

// hitMiss are the outcomes of a capture in coinChess.
var hitMiss = []rules.Outcome{{Num: 2, Den: 3, Label: "hit"}, {Num: 1, Den: 3, Label: "miss"}}

// coinChess: every capture succeeds with probability 2/3; a failed capture
// leaves the board alone and the same side decides again, at most twice a
// turn (like Vazir's tries); each turn earns the mover one coin.
func coinChess(t *testing.T) *rules.Variant {
	s := chessSpec(t)
	outcomes := func(p *rules.Position, m rules.Move) []rules.Outcome {
		if p.At(m.To()).IsPiece() {
			return hitMiss
		}
		return nil
	}
	afterMake := func(p *rules.Position, m rules.Move, outcome int) {
		us := p.Turn()
		if outcome == 1 { // the core left board and turn alone
			if p.Counter() == 0 {
				p.SetTurnState(us, 0, 1) // one more try
				return
			}
			p.SetTurnState(us.Other(), 0, 0) // tries used up: the turn passes
			us = us.Other()
		} else {
			p.SetTurnState(us, 0, 0)
		}
		mover := us.Other()
		p.SetMoney(mover, p.Money(mover)+1)
	}
	s.Ext = struct {
		outcomesFunc
		afterFuncs
	}{outcomes, afterFuncs{make: afterMake}}
	v, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestChanceAndSeveralDecisions(t *testing.T) {
	v := coinChess(t)
	p, err := v.ParseFEN("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	capture := find(t, p, "e4", "d5")
	if o := p.Outcomes(capture); len(o) != 2 || o[0].Num != 2 || o[0].Den != 3 || o[1].Label != "miss" {
		t.Fatalf("outcomes of a capture = %v", o)
	}
	if o := p.Outcomes(find(t, p, "e1", "e2")); len(o) != 1 || o[0] != rules.Certain[0] {
		t.Fatalf("outcomes of a quiet move = %v", o)
	}
	start, startHash := p.FEN(), p.Hash()

	p.MakeOutcome(capture, 1) // miss: same side, one try used
	if p.Turn() != rules.White || p.Counter() != 1 || p.At(capture.To()).Type() != v.TypeOf('P') {
		t.Fatalf("after a miss: turn %v counter %d, d5 %v", p.Turn(), p.Counter(), p.At(capture.To()))
	}
	if p.Hash() == startHash {
		t.Error("the try counter is not in the position key")
	}
	if p.Fullmove() != 1 || p.Halfmove() != 0 {
		t.Errorf("a try changed the move counters: %d %d", p.Fullmove(), p.Halfmove())
	}
	p.MakeOutcome(capture, 1) // second miss: the turn passes
	if p.Turn() != rules.Black || p.Counter() != 0 || p.Money(rules.White) != 1 {
		t.Fatalf("after two misses: turn %v counter %d money %d", p.Turn(), p.Counter(), p.Money(rules.White))
	}
	if p.Halfmove() != 1 {
		t.Errorf("halfmove after a turn of misses = %d, want 1", p.Halfmove())
	}
	p.Unmake()
	p.Unmake()
	if p.FEN() != start || p.Hash() != startHash || p.Counter() != 0 || p.Money(rules.White) != 0 {
		t.Fatalf("unmake did not restore: %s %d", p.FEN(), p.Money(rules.White))
	}
	p.MakeOutcome(capture, 1)
	p.MakeOutcome(capture, 0) // hit
	if p.FEN() != "4k3/8/8/3P4/8/8/8/4K3 b - - 0 1" || p.Money(rules.White) != 1 {
		t.Fatalf("after miss then hit: %s money %d", p.FEN(), p.Money(rules.White))
	}
}

// TestEnPassantThroughTries checks that an en-passant right lasts while
// its side's turn goes on after a failed try, and ends when the turn passes.
func TestEnPassantThroughTries(t *testing.T) {
	v := coinChess(t)
	p, err := v.ParseFEN("4k3/8/8/n1pP4/8/8/8/R3K3 w - c6 0 2")
	if err != nil {
		t.Fatal(err)
	}
	c6, _ := v.Board().ParseSquare("c6")
	if p.EnPassant() != c6 {
		t.Fatalf("en-passant square %v, want c6", p.EnPassant())
	}
	capture := find(t, p, "a1", "a5")
	p.MakeOutcome(capture, 1) // a miss: White decides again
	if p.Turn() != rules.White || p.EnPassant() != c6 {
		t.Fatalf("after a miss: turn %v, en passant %v", p.Turn(), p.EnPassant())
	}
	find(t, p, "d5", "c6")    // still legal
	p.MakeOutcome(capture, 1) // the tries are used up
	if p.Turn() != rules.Black || p.EnPassant() != geom.NoSquare {
		t.Fatalf("after the turn: turn %v, en passant %v", p.Turn(), p.EnPassant())
	}
	p.Unmake()
	p.Unmake()
	if p.EnPassant() != c6 || p.FEN() != "4k3/8/8/n1pP4/8/8/8/R3K3 w - c6 0 2" {
		t.Fatalf("unmake: %s", p.FEN())
	}
	p.MakeOutcome(find(t, p, "e1", "e2"), 0) // a move on the board ends the right
	if p.EnPassant() != geom.NoSquare {
		t.Errorf("the right outlived a move: %s", p.FEN())
	}
}

// stackState is a stand-in for variant state such as Crazy Chess stacks:
// a list of captured letters, kept by hooks, hashed into the key.
type stackState struct{ taken []byte }

func (s *stackState) Clone() rules.State { return &stackState{append([]byte(nil), s.taken...)} }
func (s *stackState) Hash() uint64 {
	h := uint64(1469598103934665603)
	for _, c := range s.taken {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}
func (s *stackState) String() string { return string(s.taken) }

func TestDropsStateAndViews(t *testing.T) {
	s := chessSpec(t)
	s.Drops = true
	after := afterFuncs{
		make: func(p *rules.Position, m rules.Move, _ int) {
			st := p.State().(*stackState)
			st.taken = append(st.taken, byte('0'+m.Kind()))
		},
		unmake: func(p *rules.Position, _ rules.Move, _ int) {
			st := p.State().(*stackState)
			st.taken = st.taken[:len(st.taken)-1]
		},
	}
	// Fog: each side sees the squares of its own pieces and their neighbours.
	fog := func(p *rules.Position, c rules.Color) rules.View {
		view := rules.View{Viewer: c, Position: p.Clone()}
		for _, sq := range p.Pieces(c) {
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					n := geom.Square(int(sq) + geom.Offset(dx, dy))
					if p.Variant().Board().Contains(n) {
						view.Visible.Add(n)
					}
				}
			}
		}
		for _, sq := range p.Variant().Board().Squares() {
			if !view.Visible.Has(sq) && view.Position.At(sq).IsPiece() {
				view.Position.Remove(sq)
			}
		}
		return view
	}
	s.Ext = struct {
		afterFuncs
		viewFunc
	}{after, fog}
	v, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParseFEN("4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	p.SetState(&stackState{})
	h0 := p.Hash()
	drops := 0
	var drop rules.Move
	for _, m := range p.LegalMoves(nil) {
		if m.Kind() == rules.Drop {
			drops++
			if m.To().String() == "d4" {
				drop = m
			}
		}
	}
	if drops != 62 {
		t.Errorf("%d knight drops, want 62 (every empty square)", drops)
	}
	p.Make(drop)
	if got := p.FEN(); got != "4k3/8/8/8/3N4/8/8/4K3[n] b - - 0 1" { // a drop resets the move rule
		t.Errorf("after N@d4: %s", got)
	}
	if p.State().String() != fmt.Sprint(int(rules.Drop)) {
		t.Errorf("state after the drop = %q", p.State())
	}
	if p.Hash() == h0 {
		t.Error("hash unchanged by a drop")
	}
	w := p.View(rules.White)
	if !w.Visible.Has(mustSq(t, v, "e2")) || w.Visible.Has(mustSq(t, v, "e8")) || w.Position.At(mustSq(t, v, "e8")).IsPiece() {
		t.Errorf("white's view shows the black king: %s", w.Position.FEN())
	}
	if !w.Position.At(mustSq(t, v, "d4")).IsPiece() {
		t.Error("white's view hides its own knight")
	}
	p.Unmake()
	if p.Hash() != h0 || p.Pocket(rules.White, v.TypeOf('N')) != 1 || p.State().String() != "" {
		t.Errorf("unmake of a drop: %s, state %q", p.FEN(), p.State())
	}
}

func mustSq(t *testing.T, v *rules.Variant, name string) geom.Square {
	t.Helper()
	b := v.Board()
	s, err := b.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPerGamePieceTypes derives a variant with a designed piece, as csipgs
// does when a player designs one, and plays it.
func TestPerGamePieceTypes(t *testing.T) {
	s := chessSpec(t)
	s.Pieces = append(s.Pieces, rules.PieceSpec{Letter: 'Y', Name: "designed", Betza: "FfR"})
	s.Start = "4k3/8/8/8/8/8/8/Y3K3 w - - 0 1"
	s.Castling = rules.CastlingSpec{}
	v, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range v.Start().LegalMoves(nil) {
		if m.From().String() == "a1" {
			n++
		}
	}
	if n != 8 { // b2 by F, a2..a8 by fR
		t.Errorf("the FfR piece on a1 has %d moves, want 8", n)
	}
}

// TestSearchHooks: InCheck, Tactical and Eval replace the core's check
// test, capture test and add to nothing in the core (the evaluation reads
// Eval): a variant where a king on the h-file counts as in check and
// every pawn move counts as a capture worth 7.
func TestSearchHooks(t *testing.T) {
	s := chessSpec(t)
	// The side to move's kings on the h-file are in check.
	checked := func(p *rules.Position, dst []geom.Square) []geom.Square {
		for _, sq := range p.Pieces(p.Turn()) {
			if p.Variant().Royal(p.At(sq).Type()) && sq.File() == 7 {
				dst = append(dst, sq)
			}
		}
		return dst
	}
	inCheck := func(p *rules.Position) bool { return len(checked(p, nil)) > 0 }
	tactical := func(p *rules.Position, m rules.Move) (int, bool) {
		if p.At(m.From()).Type() == p.Variant().Pawn() {
			return 7, true
		}
		return 0, false
	}
	s.Ext = struct {
		checkFuncs
		tacticalFunc
	}{checkFuncs{inCheck, checked}, tactical}
	v, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParseFEN("4k3/8/8/8/8/8/4P3/7K w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if !p.InCheck() {
		t.Error("the hook's check is not seen")
	}
	pawn, king := find(t, p, "e2", "e3"), find(t, p, "h1", "g1")
	if !p.IsCapture(pawn) || p.IsCapture(king) {
		t.Error("IsCapture does not follow the Tactical hook")
	}
	caps := p.LegalCaptures(nil)
	if len(caps) != 2 { // e3 and e4
		t.Errorf("LegalCaptures = %v, want the two pawn moves", caps)
	}
	p.Make(king)
	p.MakeNull()
	if p.InCheck() {
		t.Error("a king on g1 is in check")
	}
}

// TestUnlisted: Playable accepts the listed moves, and the moves the
// variant's Unlisted hook accepts besides.
func TestUnlisted(t *testing.T) {
	s := chessSpec(t)
	plain := compile(t, s)
	far := rules.NewMove(mustSq(t, plain, "a2"), mustSq(t, plain, "a5"), rules.Normal)
	s.Ext = unlistedFunc(func(p *rules.Position, m rules.Move) bool { return m == far })
	hooked := compile(t, s)
	for _, tt := range []struct {
		v    *rules.Variant
		want bool
	}{{plain, false}, {hooked, true}} {
		p := tt.v.Start()
		if !p.Playable(find(t, p, "e2", "e4")) {
			t.Error("a listed move is not playable")
		}
		if got := p.Playable(far); got != tt.want {
			t.Errorf("a2a5 playable = %v, want %v", got, tt.want)
		}
	}
}

// TestPlayableAllocates: Playable and HasLegalMove reuse the position's
// spare buffer, and a clone gets one of its own.
func TestPlayableAllocates(t *testing.T) {
	p := chessSpecVariant(t).Start()
	m := find(t, p, "e2", "e4")
	p.Playable(m)
	if n := testing.AllocsPerRun(10, func() {
		if !p.Playable(m) || !p.HasLegalMove() {
			t.Fatal("e2e4 not playable")
		}
	}); n != 0 {
		t.Errorf("%v allocations per Playable and HasLegalMove", n)
	}
	q := p.Clone()
	q.Make(m)
	if !q.HasLegalMove() || !p.Playable(m) {
		t.Error("the clone and the original disagree after sharing no buffer")
	}
}

func chessSpecVariant(t *testing.T) *rules.Variant {
	t.Helper()
	return compile(t, chessSpec(t))
}

func compile(t *testing.T, s rules.Spec) *rules.Variant {
	t.Helper()
	v, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestDropListsRestored: in a variant with drops, random lines of moves
// made and then unmade keep the piece lists in step with the board,
// including when a captured piece was the last of its colour's list and a
// drop later lands on a square another piece has left.
func TestDropListsRestored(t *testing.T) {
	s := chessSpec(t)
	s.Drops = true
	v, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for line := range 400 {
		p, err := v.ParseFEN("r1bqkb1r/pppppppp/8/8/8/8/PPPPPPPP/R1BQKB1R[NNnn] w KQkq - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		made := 0
		for ; made < 40 && !p.Status().Over(); made++ {
			ms := p.LegalMoves(nil)
			p.Make(ms[rng.IntN(len(ms))])
		}
		for ; made > 0; made-- {
			p.Unmake()
			if msg := rules.CheckLists(p); msg != "" {
				t.Fatalf("line %d, after unmaking to ply %d: %s", line, made-1, msg)
			}
		}
	}
}

// TestChecked checks the squares Position.Checked names: the attacked
// royal pieces of the side to move, none out of check, and the Checked
// hook's answer where a variant's InCheck hook decides.
func TestChecked(t *testing.T) {
	v := chessSpecVariant(t)
	tests := []struct{ fen, want string }{
		{"4k3/8/8/8/8/8/8/4RK2 b - - 0 1", "[e8]"},
		{"4k3/8/8/8/8/8/8/3R1K2 b - - 0 1", "[]"},
		{"4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "[]"},
	}
	for _, tt := range tests {
		p, err := v.ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(p.Checked(nil)); got != tt.want {
			t.Errorf("%s: Checked = %s, want %s", tt.fen, got, tt.want)
		}
	}
	s := chessSpec(t)
	s.Ext = checkFuncs{
		inCheck: func(p *rules.Position) bool { return p.Turn() == rules.Black },
		checked: func(p *rules.Position, dst []geom.Square) []geom.Square { return append(dst, geom.Sq(0, 0)) },
	}
	hv, err := rules.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ fen, want string }{
		{"4k3/8/8/8/8/8/8/4K3 b - - 0 1", "[a1]"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "[]"},
	} {
		p, err := hv.ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(p.Checked(nil)); got != tt.want {
			t.Errorf("hook %s: Checked = %s, want %s", tt.fen, got, tt.want)
		}
	}
}

// TestModerate: without a Moderate hook the moderator plays a move of the
// view that the true position allows as it is, and refuses any other;
// with one, the hook decides.
func TestModerate(t *testing.T) {
	s := chessSpec(t)
	plain := compile(t, s)
	a2 := mustSq(t, plain, "a2")
	far := rules.NewMove(a2, mustSq(t, plain, "a5"), rules.Normal)
	a2a3 := rules.NewMove(a2, mustSq(t, plain, "a3"), rules.Normal)
	s.Ext = moderateFunc(func(p, view *rules.Position, m rules.Move) (rules.Move, error) {
		return a2a3, nil // whatever was asked
	})
	hooked := compile(t, s)
	for _, tt := range []struct {
		name string
		v    *rules.Variant
		m    func(p *rules.Position) rules.Move
		want string // the move played, "" refused
	}{
		{"legal", plain, func(p *rules.Position) rules.Move { return find(t, p, "e2", "e4") }, "e2e4"},
		{"illegal", plain, func(*rules.Position) rules.Move { return far }, ""},
		{"hook", hooked, func(*rules.Position) rules.Move { return far }, "a2a3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.v.Start()
			got, err := p.Moderate(p.View(rules.White).Position, tt.m(p))
			switch {
			case tt.want == "" && !errors.Is(err, rules.ErrRefused):
				t.Errorf("Moderate = %v, %v; want a refusal", got, err)
			case tt.want != "" && (err != nil || got.From().String()+got.To().String() != tt.want):
				t.Errorf("Moderate = %#v, %v; want %s", got, err, tt.want)
			}
		})
	}
}

// TestPublicOptions: options a variant marks Secret are left out of what
// is published of a game in play.
func TestPublicOptions(t *testing.T) {
	s := chessSpec(t)
	s.Ext = optionFuncs{options: func() []rules.Option {
		return []rules.Option{{Name: "Map", Value: "a"}, {Name: "Mines", Value: "-", Secret: true}}
	}}
	v := compile(t, s)
	got := v.PublicOptions(map[string]string{"Map": "b", "Mines": "d4", "Other": "x"})
	if len(got) != 2 || got["Map"] != "b" || got["Other"] != "x" {
		t.Errorf("PublicOptions = %v", got)
	}
}

// coinRules is a rules object of its own type, to be found again from
// the variant.
type coinRules struct {
	outcomesFunc
	afterFuncs
	games int // per-game data a variant package would keep
}

// TestExt: a variant's rules object is reachable from the Variant (and
// from a copy with a Face) as the value its Spec gave, and the core uses
// exactly the optional interfaces it implements.
func TestExt(t *testing.T) {
	if x := chessSpecVariant(t).Ext(); x != nil {
		t.Errorf("Ext of a data variant = %v, want nil", x)
	}
	base := coinChess(t).Spec().Ext.(struct {
		outcomesFunc
		afterFuncs
	})
	obj := &coinRules{outcomesFunc: base.outcomesFunc, afterFuncs: base.afterFuncs, games: 7}
	s := chessSpec(t)
	s.Ext = obj
	v := compile(t, s)
	for _, tt := range []struct {
		name string
		v    *rules.Variant
	}{{"compiled", v}, {"with a face", v.WithFace("f")}} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.v.Ext().(*coinRules)
			if !ok || got != obj || got.games != 7 {
				t.Fatalf("Ext = %#v, want the Spec's object", tt.v.Ext())
			}
			if !tt.v.Chance() || tt.v.Seeded() || tt.v.Options() != nil {
				t.Errorf("Chance %v, Seeded %v, Options %v; want a Randomizer alone of these", tt.v.Chance(), tt.v.Seeded(), tt.v.Options())
			}
			p, err := tt.v.ParseFEN("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
			if err != nil {
				t.Fatal(err)
			}
			capture := find(t, p, "e4", "d5")
			if o := p.Outcomes(capture); len(o) != 2 {
				t.Fatalf("outcomes of a capture = %v, want the Randomizer's two", o)
			}
			p.MakeOutcome(capture, 0)
			if p.Money(rules.White) != 1 {
				t.Errorf("money after a move = %d, want the AfterMover's coin", p.Money(rules.White))
			}
		})
	}
}

// TestExtAllocations: calling a variant's rules through the interfaces
// Compile found allocates nothing on the hot path (generation, outcomes,
// make with an AfterMover, check, unmake).
func TestExtAllocations(t *testing.T) {
	v := coinChess(t)
	p, err := v.ParseFEN("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]rules.Move, 0, rules.MaxMoves)
	p.Make(p.LegalMoves(buf)[0]) // let the history grow once
	p.Unmake()
	allocs := testing.AllocsPerRun(100, func() {
		for _, m := range p.LegalMoves(buf[:0]) {
			for k := range p.Outcomes(m) {
				p.MakeOutcome(m, k)
				_ = p.InCheck()
				p.Unmake()
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per generate-make-unmake round", allocs)
	}
}
