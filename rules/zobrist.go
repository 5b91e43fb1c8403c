package rules

import "github.com/anychess/anychess/geom"

// zobrist holds the random keys of one variant's position hash.
type zobrist struct {
	piece  []uint64 // [(type*2+colour)*Cells + square]
	side   uint64
	castle [16]uint64
	ep     [geom.Cells]uint64
}

// splitmix64 is the generator behind the keys: fixed seed, so keys and
// hashes are the same in every run.
func splitMix64(x *uint64) uint64 {
	*x += 0x9E3779B97F4A7C15
	z := *x
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Mix64 scrambles one value into a key (one step of splitmix64 from x),
// for state without a key table: variants hash their own state with it,
// and it derives one seed from another.
func Mix64(x uint64) uint64 { return splitMix64(&x) }

func newZobrist(ntypes int) zobrist {
	seed := uint64(0x616E796368657373) // "anychess"
	z := zobrist{piece: make([]uint64, ntypes*2*geom.Cells)}
	for i := range z.piece {
		z.piece[i] = splitMix64(&seed)
	}
	z.side = splitMix64(&seed)
	for i := 1; i < 16; i++ {
		z.castle[i] = splitMix64(&seed)
	}
	for i := range z.ep {
		z.ep[i] = splitMix64(&seed)
	}
	return z
}

// pieceKey returns the key of piece p on square s.
func (z *zobrist) pieceKey(p Piece, s geom.Square) uint64 {
	k := z.piece[(int(p.Type())*2+int(p.Color()))*geom.Cells+int(s)]
	if a := p.Attr(); a != 0 {
		k ^= Mix64(k ^ uint64(a))
	}
	if p&promoted != 0 {
		k ^= Mix64(k ^ 1<<40)
	}
	return k
}
