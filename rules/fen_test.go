package rules_test

import (
	"errors"
	"testing"

	"github.com/anychess/anychess/internal/vtest"
	"github.com/anychess/anychess/rules"
)

func TestFENErrors(t *testing.T) {
	reg := vtest.Builtins()
	chess, _ := reg.Get("chess")
	gs, _ := reg.Get("greatshatranj")
	tests := []struct {
		v     *rules.Variant
		fen   string
		field string
	}{
		{chess, "", "position"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "position"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board"},
		{chess, "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
		{chess, "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "board"},
		{chess, "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "castling"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "castling"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", "fullmove"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "position"},
		{chess, "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "position"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w - - 0 1", "position"},
		{chess, "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w - - 0 1", "position"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w - - 0 1", "position"},
		{chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w - - 0 1", "board"},
		{gs, "wnegkmhenw/pppppppppp/10/10/10/10/PPPPPPPPPP/WNEGKMHENW w - a3 0 1", "en passant"},
		{gs, "wnegkmhenw/pppppppppp/10/10/10/10/PPPPPPPPPP/WNEGKMHENW w - - 0 1 9", "position"},
	}
	for _, tt := range tests {
		_, err := tt.v.ParseFEN(tt.fen)
		var fe *rules.FENError
		if !errors.As(err, &fe) || !errors.Is(err, rules.ErrFEN) {
			t.Errorf("%q: error %v, want a FENError", tt.fen, err)
			continue
		}
		if fe.Field != tt.field {
			t.Errorf("%q: field %q (%v), want %q", tt.fen, fe.Field, err, tt.field)
		}
	}
}

func TestFENNormalises(t *testing.T) {
	reg := vtest.Builtins()
	chess, _ := reg.Get("chess")
	for in, want := range map[string]string{
		// An en-passant square without a capture is dropped.
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		// Four fields; move number 0.
		"8/8/8/8/8/8/8/K6k w - -":                                  "8/8/8/8/8/8/8/K6k w - - 0 1",
		"8/8/8/8/8/8/8/K6k w - - 5 0":                              "8/8/8/8/8/8/8/K6k w - - 5 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	} {
		p, err := chess.ParseFEN(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got := p.FEN(); got != want {
			t.Errorf("%s -> %s, want %s", in, got, want)
		}
	}
}

func FuzzFEN(f *testing.F) {
	reg := vtest.Builtins()
	vs := reg.Variants()
	for _, v := range vs {
		f.Add(v.StartFEN())
	}
	f.Add("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	f.Add("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
	f.Add("1k8/P9/10/10/10/10/10/WNEGKMHENW w - - 0 1")
	// The classic families: makruk's count, crazyhouse's promoted pieces,
	// shogi's promoted types and hands, xiangqi's palace.
	f.Add("8/8/4k3/8/3K4/8/3R4/8 w - 32 5 30")
	f.Add("4B~2B/5k2/QN~1p4/p1ppPPbp/1Pb4P/p1Q1B1Pp/P1r~1Nn2/R3RKRR[nn] b - - 0 75")
	f.Add("lnskg1snl/2g1p2r1/pp+Np1p1pp/6p2/4B4/1P4P2/P2PPPNPP/3KB1GR1/L1SG2S1L[PPp] b - - 0 12")
	f.Add("2bak4/4a4/4b4/2p6/2C1P4/9/9/4B4/4A4/3AK4 b - - 0 1")
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range vs {
			p, err := v.ParseFEN(s)
			if err != nil {
				if !errors.Is(err, rules.ErrFEN) {
					t.Fatalf("%s %q: error %v does not wrap ErrFEN", v.Name(), s, err)
				}
				continue
			}
			out := p.FEN()
			q, err := v.ParseFEN(out)
			if err != nil {
				t.Fatalf("%s: %q -> %q does not read back: %v", v.Name(), s, out, err)
			}
			if q.FEN() != out || q.Hash() != p.Hash() {
				t.Fatalf("%s: %q -> %q -> %q", v.Name(), s, out, q.FEN())
			}
			p.Status()
			rules.Perft(p, 2)
		}
	})
}

// TestParseFENLenient: castling rights without a king and rook are dropped
// (ParseFEN refuses them); any other fault still refuses the FEN.
func TestParseFENLenient(t *testing.T) {
	reg := vtest.Builtins()
	chess, _ := reg.Get("chess")
	tests := []struct {
		fen, want, dropped string
		bad                bool
	}{
		{fen: "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", want: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", dropped: "KQkq"},
		{fen: "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", want: "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1", dropped: "Qk"},
		{fen: "4k3/8/8/8/8/8/8/R3K2R w HAkq - 0 1", want: "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", dropped: "kq"},
		{fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", want: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{fen: "4k3/8/8/8/8/8/8/4K3 w KQkqX - 0 1", bad: true},
		{fen: "4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", bad: true},
		{fen: "4k3/8/8/8/8/8/8/4K3 x KQkq - 0 1", bad: true},
	}
	for _, tc := range tests {
		if _, err := chess.ParseFEN(tc.fen); (err == nil) != (tc.dropped == "" && !tc.bad) {
			t.Errorf("ParseFEN(%q): error %v; strict reading changed", tc.fen, err)
		}
		p, dropped, err := chess.ParseFENLenient(tc.fen)
		if tc.bad {
			if err == nil || !errors.Is(err, rules.ErrFEN) {
				t.Errorf("ParseFENLenient(%q): error %v, want a FEN error", tc.fen, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseFENLenient(%q): %v", tc.fen, err)
			continue
		}
		if p.FEN() != tc.want || dropped != tc.dropped {
			t.Errorf("ParseFENLenient(%q) = %q dropping %q, want %q dropping %q", tc.fen, p.FEN(), dropped, tc.want, tc.dropped)
		}
	}
}
