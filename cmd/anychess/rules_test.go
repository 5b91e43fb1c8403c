package main

import "testing"

// c13FEN is worked example C13 of Crazy Chess: the knight on b1 may take
// the pawn on b3 on its way to c3 under KnightPath=L, not under Mao.
const c13FEN = "7k/8/8/8/8/1p6/8/1N5K w - - 0 1 b - 0"

// TestRulesCommands checks the commands' answers on variant rules: every
// option a variant has may be set with -opt.
func TestRulesCommands(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{"crazy option default path", []string{"perft", "-variant", "crazy", "-fen", c13FEN, "-depth", "1"}, 0, []string{"nodes 23\n"}, nil, 0},
		{"crazy option KnightPath", []string{"perft", "-variant", "crazy", "-opt", "KnightPath=Mao", "-fen", c13FEN, "-depth", "1"}, 0, []string{"nodes 21\n"}, nil, 0},
		{"crazy option StackExit", []string{"show", "-variant", "crazy", "-opt", "StackExit=TopOnly", "-opt", "AllRoundRequiresVictim=false"}, 0, nil, nil, 0},
		{"crazy unknown option", []string{"show", "-variant", "crazy", "-opt", "Foo=1"}, 1, nil, []string{"crazychess has the options Denial, StackExit, KingStep1Immunity, KnightPath"}, 0},
		{"crazy dead material deniable", []string{"apply", "-variant", "crazy", "-fen", "7k/8/8/8/R3q3/8/8/K7 w - - 0 1 b - 0", "Ra4xe4", "DENY"}, 0,
			[]string{"7k/8/8/8/R3q3/8/8/K7 w - - 0 1 w b 1\n", "ongoing"}, nil, 0},
		{"design unknown option", []string{"design", "-opt", "Foo=1", "N"}, 1, nil, []string{"-opt Foo: csipgs has the options Relay, "}, 0},
		{"design relay without Relay", []string{"design", "relay-bNbW"}, 1, nil, []string{`"relay-bNbW" is a relay design`, "Relay=1"}, 0},
		{"design relay with Relay=0", []string{"design", "-opt", "Relay=0", "relay-bNbW"}, 1, nil, []string{"relay design"}, 0},
		{"design relay with Relay=1", []string{"design", "-opt", "Relay=1", "relay-bNbW"}, 0, []string{"price 3 (exact cost 3, rounded up)\n", "relay: yes (price x2)\n"}, nil, 0},
	})
}
