package eval

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"unsafe"

	"github.com/anychess/anychess/rules"
)

// ErrNetwork marks a network file that cannot be read or does not fit its
// variant.
var ErrNetwork = errors.New("bad network file")

// networkMagic begins a network file.
const networkMagic = "anychess-net-1\n"

// Limits of a network file, so that a file cannot ask for more memory than
// a network of this kind needs.
const (
	MaxNetworkHidden = 512 // hidden units
	maxNetworkTypes  = 16  // piece letters
	maxNetworkSide   = 16  // files or ranks
)

// Network is a small network of the NNUE kind that corrects the
// evaluation: its output, in units of 400 centipawns and clipped to
// ±Clip, is added to the score of the variant's own weights. Its inputs
// are one for each piece letter of Letters, owner (the side it is seen
// from, or the other) and square, from each side's view (the board turned
// for Black); its Hidden units are the sum of the inputs' rows of W1 and
// B1, clipped to [0, 1]; the output is B2 plus W2's first Hidden weights
// times the units from the side to move's view and its last Hidden times
// those from the other side's.
type Network struct {
	Letters      string // the piece letters of the inputs, upper case
	Files, Ranks int    // the board
	Hidden       int
	Clip         float32   // the output's bound (0: none)
	W1           []float32 // by input, then hidden unit
	B1           []float32 // by hidden unit
	W2           []float32 // 2 × Hidden
	B2           float32

	// the network in integers, which the evaluation computes with, so that
	// a score is the same whatever order the accumulators were updated in
	q1  []int32
	qb1 []int32
	q2  []int32
	qb2 int64
}

// The network's integer scales: a hidden unit's 1 is qa, an output
// weight's 1 is qb.
const (
	qa = 4096
	qb = 4096
)

// Inputs returns the number of the network's inputs.
func (n *Network) Inputs() int { return 2 * len(n.Letters) * n.Files * n.Ranks }

// NewNetwork returns a network of zero weights with the given inputs and
// hidden units.
func NewNetwork(letters string, files, ranks, hidden int) (*Network, error) {
	n := &Network{Letters: letters, Files: files, Ranks: ranks, Hidden: hidden}
	if err := n.check(); err != nil {
		return nil, err
	}
	n.W1 = make([]float32, n.Inputs()*hidden)
	n.B1 = make([]float32, hidden)
	n.W2 = make([]float32, 2*hidden)
	n.Quantize()
	return n, nil
}

func (n *Network) check() error {
	switch {
	case len(n.Letters) == 0 || len(n.Letters) > maxNetworkTypes:
		return fmt.Errorf("%w: %d piece letters, want 1 to %d", ErrNetwork, len(n.Letters), maxNetworkTypes)
	case n.Files < 1 || n.Files > maxNetworkSide || n.Ranks < 1 || n.Ranks > maxNetworkSide:
		return fmt.Errorf("%w: a board of %dx%d", ErrNetwork, n.Files, n.Ranks)
	case n.Hidden < 1 || n.Hidden > MaxNetworkHidden:
		return fmt.Errorf("%w: %d hidden units, want 1 to %d", ErrNetwork, n.Hidden, MaxNetworkHidden)
	case n.Clip < 0 || n.Clip > 100 || math.IsNaN(float64(n.Clip)):
		return fmt.Errorf("%w: clip %v", ErrNetwork, n.Clip)
	}
	for i := 0; i < len(n.Letters); i++ {
		if c := n.Letters[i]; c < 'A' || c > 'Z' {
			return fmt.Errorf("%w: piece letter %q", ErrNetwork, c)
		}
	}
	return nil
}

// ReadNetwork reads a network file: the line "anychess-net-1", then
// little-endian: the number of piece letters (a byte) and the letters,
// the board's files and ranks (a byte each), the hidden units (uint16),
// Clip, W1, B1, W2 and B2 (float32).
func ReadNetwork(r io.Reader) (*Network, error) {
	br := bufio.NewReader(r)
	magic := make([]byte, len(networkMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != networkMagic {
		return nil, fmt.Errorf("%w: not a network file", ErrNetwork)
	}
	var head [1]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNetwork, err)
	}
	letters := make([]byte, head[0])
	var dims [2]byte
	var hidden uint16
	n := &Network{}
	for _, x := range []any{letters, dims[:], &hidden, &n.Clip} {
		if err := binary.Read(br, binary.LittleEndian, x); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNetwork, err)
		}
	}
	n.Letters, n.Files, n.Ranks, n.Hidden = string(letters), int(dims[0]), int(dims[1]), int(hidden)
	if err := n.check(); err != nil {
		return nil, err
	}
	n.W1 = make([]float32, n.Inputs()*n.Hidden)
	n.B1 = make([]float32, n.Hidden)
	n.W2 = make([]float32, 2*n.Hidden)
	for _, x := range []any{n.W1, n.B1, n.W2, &n.B2} {
		if err := binary.Read(br, binary.LittleEndian, x); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNetwork, err)
		}
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the weights", ErrNetwork)
	}
	for _, w := range [][]float32{n.W1, n.B1, n.W2, {n.B2}} {
		for _, x := range w {
			if math.IsNaN(float64(x)) || math.Abs(float64(x)) > 100 {
				return nil, fmt.Errorf("%w: weight %v", ErrNetwork, x)
			}
		}
	}
	n.Quantize()
	return n, nil
}

// WriteTo writes n as a network file (ReadNetwork).
func (n *Network) WriteTo(w io.Writer) (int64, error) {
	if err := n.check(); err != nil {
		return 0, err
	}
	cw := &countWriter{w: w}
	bw := bufio.NewWriter(cw)
	bw.WriteString(networkMagic)
	bw.WriteByte(byte(len(n.Letters)))
	bw.WriteString(n.Letters)
	bw.WriteByte(byte(n.Files))
	bw.WriteByte(byte(n.Ranks))
	for _, x := range []any{uint16(n.Hidden), n.Clip, n.W1, n.B1, n.W2, n.B2} {
		if err := binary.Write(bw, binary.LittleEndian, x); err != nil {
			return cw.n, err
		}
	}
	err := bw.Flush()
	return cw.n, err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	k, err := c.w.Write(p)
	c.n += int64(k)
	return k, err
}

// Quantize computes the integers the evaluation uses from the weights;
// call it after changing them.
func (n *Network) Quantize() {
	r := func(x float32, s float64) float64 { return math.Round(float64(x) * s) }
	n.q1 = make([]int32, len(n.W1))
	for i, x := range n.W1 {
		n.q1[i] = int32(r(x, qa))
	}
	n.qb1 = make([]int32, len(n.B1))
	for i, x := range n.B1 {
		n.qb1[i] = int32(r(x, qa))
	}
	n.q2 = make([]int32, len(n.W2))
	for i, x := range n.W2 {
		n.q2[i] = int32(r(x, qb))
	}
	n.qb2 = int64(r(n.B2, qa*qb))
}

// Feature returns the input of a piece of letter index t (in Letters) of
// colour c on the square of file f and rank k, seen from side view.
func (n *Network) Feature(view, c rules.Color, t, f, k int) int {
	own := 0
	if c != view {
		own = 1
	}
	if view == rules.Black {
		k = n.Ranks - 1 - k
	}
	return ((own*len(n.Letters)+t)*n.Ranks+k)*n.Files + f
}

// networks keeps the networks read from the variants' network files, by
// the address of the file's bytes, so that each is read once. An entry
// holds the bytes too, so that their memory is not given to other bytes
// while the entry stands.
var networks sync.Map

// networkEntry is a network read from data.
type networkEntry struct {
	data []byte
	n    *Network
}

// networkOf returns the network of v's Spec, read once, or nil if it has
// none or it does not fit v (CheckNetwork).
func networkOf(v *rules.Variant) *Network {
	data := v.Spec().Network
	if len(data) == 0 {
		return nil
	}
	key := unsafe.SliceData(data)
	if e, ok := networks.Load(key); ok && len(e.(networkEntry).data) == len(data) {
		return e.(networkEntry).n
	}
	n, err := parseNetwork(v, data)
	if err != nil {
		return nil
	}
	networks.Store(key, networkEntry{data: data, n: n})
	return n
}

// CheckNetwork reports whether data is a network file that fits v: its
// board and piece letters v's, and every piece type of v among them.
func CheckNetwork(v *rules.Variant, data []byte) error {
	_, err := parseNetwork(v, data)
	return err
}

func parseNetwork(v *rules.Variant, data []byte) (*Network, error) {
	n, err := ReadNetwork(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if _, err := n.TypesOf(v); err != nil {
		return nil, err
	}
	return n, nil
}

// TypesOf returns, by type of v, the index of its letter in n.Letters,
// or an error if n does not fit v: another board, or a type of v with no
// input.
func (n *Network) TypesOf(v *rules.Variant) (*[rules.MaxTypes + 1]int8, error) {
	b := v.Board()
	if b.Files != n.Files || b.Ranks != n.Ranks {
		return nil, fmt.Errorf("%w: a network for %dx%d, the board is %dx%d", ErrNetwork, n.Files, n.Ranks, b.Files, b.Ranks)
	}
	var out [rules.MaxTypes + 1]int8
	for i := range out {
		out[i] = -1
	}
	for i := 0; i < len(n.Letters); i++ {
		if t := v.TypeOf(n.Letters[i]); t != 0 {
			out[t] = int8(i)
		}
	}
	for t := rules.Type(1); int(t) <= v.NumTypes(); t++ {
		if out[t] < 0 {
			return nil, fmt.Errorf("%w: the network has no input for %c", ErrNetwork, v.Letter(t))
		}
	}
	return &out, nil
}

// NetState is one search thread's memory of the network: the hidden
// units' sums from each side's view for the board it last evaluated, so
// that the next evaluation adds and takes away only the pieces that
// differ. The zero value is ready; a NetState is not safe for concurrent
// use.
type NetState struct {
	n     *Network
	board [maxNetworkSide * maxNetworkSide]int8 // by square: piece code + 1, 0 empty
	acc   [2][MaxNetworkHidden]int32
}

// score returns the network's correction of p's score, in centipawns for
// the side to move, updating st.
func (n *Network) score(p *rules.Position, types *[rules.MaxTypes + 1]int8, st *NetState) int {
	h, sq := n.Hidden, n.Files*n.Ranks
	nt := len(n.Letters)
	var cur [maxNetworkSide * maxNetworkSide]int8
	for c := rules.White; c <= rules.Black; c++ {
		for _, s := range p.Pieces(c) {
			if t := types[p.At(s).Type()]; t >= 0 {
				cur[s.Rank()*n.Files+s.File()] = int8(int(c)*nt+int(t)) + 1
			}
		}
	}
	a0, a1 := st.acc[0][:h], st.acc[1][:h]
	if st.n != n {
		st.n = n
		st.board = [maxNetworkSide * maxNetworkSide]int8{}
		copy(a0, n.qb1)
		copy(a1, n.qb1)
	}
	for i := 0; i < sq; i++ {
		old, now := st.board[i], cur[i]
		if old == now {
			continue
		}
		f, k := i%n.Files, i/n.Files
		if old != 0 {
			n.piece(a0, a1, old, f, k, -1)
		}
		if now != 0 {
			n.piece(a0, a1, now, f, k, 1)
		}
		st.board[i] = now
	}
	us, them := a0, a1
	if p.Turn() == rules.Black {
		us, them = a1, a0
	}
	o := n.qb2
	w2 := n.q2[:2*h]
	for j := 0; j < h; j++ {
		o += int64(w2[j])*int64(min(max(us[j], 0), qa)) + int64(w2[h+j])*int64(min(max(them[j], 0), qa))
	}
	if n.Clip > 0 {
		c := int64(math.Round(float64(n.Clip) * qa * qb))
		o = min(max(o, -c), c)
	}
	return int(o * 400 / (qa * qb))
}

// piece adds (sign 1) or takes away (sign -1) the rows of the piece of
// board code code (NetState.board: colour × letters + letter, plus 1) on
// the square of file f and rank k to White's sums a0 and Black's a1.
func (n *Network) piece(a0, a1 []int32, code int8, f, k int, sign int32) {
	nt := len(n.Letters)
	c, t := rules.Color(int(code-1)/nt), int(code-1)%nt
	for view, a := range [2][]int32{a0, a1} {
		i := n.Feature(rules.Color(view), c, t, f, k) * n.Hidden
		row := n.q1[i : i+len(a)]
		for j := range a {
			a[j] += sign * row[j]
		}
	}
}
