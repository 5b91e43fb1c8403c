// Package xboard speaks the Chess Engine Communication Protocol (CECP, the
// "XBoard protocol", version 2) as an engine, for every variant of a
// registry.
//
// # Commands
//
// xboard, protover (answered with the features below), accepted, rejected,
// new, variant, force, go, playother, usermove and a bare move, level, st,
// sd, time, otim, ping, setboard, undo, remove, post, nopost, hard and easy
// (pondering on and off), result, ? (move now), memory, cores, analyze, exit
// and . (status) in analyze mode, hint, bk, computer, name, rating, ics,
// random, draw, quit, option, and d, which is not part of the protocol: it prints the
// position as comment lines.
//
// A move that is not legal is answered "Illegal move: MOVE"; a command the
// engine cannot carry out "Error (REASON): COMMAND"; in both cases nothing
// changes. A position from setboard that the engine cannot accept is
// answered "tellusererror Illegal position: REASON", and, as the protocol
// suggests, moves are then refused until the next new, variant or setboard.
// Castling rights without a king and rook for them are dropped, not refused
// (as Stockfish and python-chess drop them), with a comment line saying so.
// The engine announces the end of a game by rule after its own move and after
// the opponent's when not in force mode ("1-0 {White mates}").
//
// The memory command sizes the hash table up to the machine's memory
// (search.MaxHashMB, the bound of UCI's Hash option); a larger request is
// cut to it, with a comment line saying so. The table is made at once if
// no search runs, else before the next search or new game. The cores
// command (feature smp=1) sets the threads of the engine's parallel search
// (search.Engine.SetThreads) in the same way, up to the machine's CPUs
// (search.CPUs).
//
// The features sent in reply to protover are
//
//	feature myname="anychess" ping=1 setboard=1 usermove=1 playother=1 colors=0 sigint=0 reuse=1 analyze=1 san=0 time=1 draw=0 memory=1 smp=1 exclude=0
//	feature variants="normal,great,greatshat,chatrang,shatranj,kurierspiel,capablanca,thai,grandchess,zh,chinese-chess,japanese-chess"
//	feature option="VariantPath -file <empty>"
//	feature done=1
//
// The one engine option, VariantPath, loads variant files as
// Fairy-Stockfish's option of that name loads a variants.ini: "option
// VariantPath=PATH", where PATH is a variant file, a directory of *.toml
// files, or a list of them separated by ':'. The engine answers with a
// comment line for each variant it loaded, a tellusererror line for each
// file it refused, and the variants feature again with the new names.
//
// # Variants
//
// Chess is XBoard's "normal". Great Shatranj is offered twice: as XBoard's
// own variant "great" (same pieces, letters and start position; XBoard keeps
// the pieces a pawn may promote to in holdings beside the board, which the
// engine drops from setboard's FEN), so that it can play Fairy-Max and
// other engines there, and as "greatshat", an engine-defined variant that
// is exactly the anychess board. The name "greatshatranj" cannot be used:
// XBoard reads any variant name containing "shatranj" as its Shatranj.
// Chatrang, which XBoard does not know, is the engine-defined "chatrang".
// Chess960 is XBoard's own "fischerandom": castling is O-O or O-O-O both
// ways, as XBoard writes it in that variant, and positions come in X-FEN or
// Shredder-FEN.
// Other registry variants are offered under their names (see XBoardNames).
//
// After "variant NAME" for an engine-defined variant the engine sends a
// setup command: the piece-to-char table mapping each FEN letter to one of
// XBoard's piece types (whose image XBoard shows), the board size with the
// parent variant fairy, and the start position; then a piece command with
// the moves, in XBoard's Betza notation, of every piece XBoard's type would
// move differently. For XBoard's own variants only the piece commands are
// sent, as Fairy-Max does. See SetupCommands and XBetza for the exact lines
// and the limits of what XBoard's notation can say.
//
// Moves are in coordinate notation (e2e4, e7e8q, j2j3). XBoard counts the
// ranks of a board of exactly ten ranks from 0; the engine translates.
//
// After "setboard" in an engine-defined variant the engine sends the setup
// again with that position (PositionSetup), so that a position XBoard loaded
// at start-up (-lpf) survives the setup reply to "variant", which XBoard
// otherwise takes as the start.
//
// # XBoard's own adjudication
//
// XBoard judges the end of a game itself, by chess rules, unless told not
// to. In Chatrang a stalemated side loses and a bare king loses, and
// repetition does not draw, so start XBoard for Chatrang with
//
//	xboard -variant chatrang -fcp "anychess xboard" -checkMates false -repeatsToDraw 0 -materialDraws false -testClaims false
//
// (checked with XBoard 4.9.1 under Xvfb, two anychess engines and a
// position file: without the last two flags XBoard scores the engine's
// "1-0 {Black has a bare king and loses}" as a draw).
//
// # Pondering
//
// After "hard" the engine thinks on the opponent's time: when it has moved,
// it searches the position after the reply it expects (a comment line
// "# pondering on MOVE" names it) until the opponent's move, "easy", force,
// or any command that changes the game arrives. That search only fills the
// transposition table; the search for the engine's next move starts afresh
// and finds there what pondering learned. "easy" (the default) turns
// pondering off.
//
// # Time
//
// level MPS BASE INC (BASE in minutes or minutes:seconds), st SECONDS and
// sd DEPTH set the time control; time and otim (centiseconds) the clocks.
// Without level, st or time, the engine searches to the sd depth, or for one
// second per move. Thinking output (after post, and always in analyze mode)
// is "depth score time nodes pv", the score in centipawns for the side to
// move (mate in N as 100000+N, mated in N as -100000-N), the time in
// centiseconds, a ? or ! after the PV for a fail low or high.
//
// # References
//
// The protocol: Tim Mann and H. G. Muller, "Chess Engine Communication
// Protocol", engine-intf.html in XBoard's sources (the setup and piece
// commands are in section 9, the variant names in section 8). The Betza
// notation XBoard reads, its piece types and its handling of variant names:
// XBoard's moves.c (MovesFromString), common.h (the piece types,
// VARIANT_NAMES) and backend.c (StringToVariant), and its 4.8.0 release
// notes ("Engine-defined variant names", "Letting the engine configure the
// GUI's move generator"). The tables and piece lines were checked against
// Fairy-Max 5.0b and by games under XBoard 4.9.1.
package xboard
