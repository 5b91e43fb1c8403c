// Package csipgs implements csipgs Chess as hooks on the rules core:
// treasuries, buying pieces of the players' own designs, designs priced
// from Betza atoms, reserves and transfers next to royal pieces, several
// royals, and an optional moderated mode with hidden information.
//
// The rules are those of the project's specification, csipgs.md (rule
// IDs CS-1..CS-22, moderated mode CS-M1..CS-M5, worked examples X1-X8 and
// the price table of section 3.10).
//
// # Designs and prices
//
// ParseDesign reads the Betza subset of section 3.6 and reports faults as
// a *DesignError with the byte offset and the reason. Price (and
// PriceWith, Info, PriceOf) compute CS-16..CS-21 exactly in scaled
// integers (units of 10^-5 zorkmid), then round up; PriceInfo gives the
// price, the exact cost as a fraction, the colour binding (from the move
// vectors), royalty, relay and the move set (Diagram draws it).
//
// # How the variant sits on the core
//
// New returns a *rules.Variant named "csipgs". The core has 26 piece
// types, A..Z; which design a letter names is the game's type table, kept
// in the variant state with the six design slots of each player, so a
// piece keeps the design it was bought with however the slots change. The
// core's own movement of these types is a placeholder that is never
// played: Generate drops the core's moves and generates every piece move
// from the designs, Legal applies CS-11/CS-12, and attacks are computed
// from the designs. Designs are compiled once per variant instance into
// an append-only registry; a design move carries a registry index.
//
// A turn is two decisions by the same side, carried by the position's
// phase: the action (phase 0: a piece move, a transfer as a core Drop, a
// buy as a Special move) and the design decision (phase 1: a Special move
// that changes one slot, or "&-" for no change). The treasury is
// Position.Money; the credit of CS-5 is added when the action is made
// (Available gives treasury plus credit during the action).
//
// # Decisions where the specification is silent or ambiguous
//
// Designs and prices:
//   - A design is identified by its canonical text (prefix letters in a
//     fixed order, WW written R (WW after an R), FF written B (FF after a
//     B), rl written s, fh written f);
//     shortcuts stay as written, and the order of powers is kept, so
//     "royal-K" and "royal-WF", or "fmWfcF" and "fcFfmW", are different
//     designs of equal price. The 50-move reset designs are matched by
//     canonical text.
//   - On orthogonal atoms several direction letters are a union of powers
//     (fs, fb, sb, fbs), as CS-17 prices fsR; v, h and a lone r or l are
//     rejected. On diagonal atoms f, b and the union fb are accepted. On
//     oblique atoms exactly the ten prefixes of 3.6 (f, fh, b, bh, v, s,
//     ff, fs, bb, bs). A letter given twice is rejected.
//   - Doubled atoms other than WW, FF and NN (DD, RR, KK, ...) are riders
//     without a price and are rejected; "WWWW" is two Rook powers.
//   - Designs are at most 64 bytes and 16 powers (after expansion).
//   - Colour binding looks at every vector, capture-only ones included.
//   - A design's moves are those of its powers, each move once. A leap
//     that is the first step of a rider in the same direction is the
//     rider's move, so the leap keeps only the modes the rider lacks (WR
//     and cWR move as R; WfR as fR and the W's other three steps; WcR as
//     cR and mW; mWcR keeps both). A leap that is a further step of a
//     rider (RD, BA, RH, BG) stays a move of its own, since it jumps a
//     blocked path; where both give the same move it is listed once.
//     The price is that of the powers as written: WR costs more than R.
//
// Rules:
//   - With exactly one royal on the board (CS-11), the rule is judged
//     before the action: that royal may not be left attacked. Transferring
//     a second royal from the reserve is allowed even onto an attacked
//     square; from then on CS-12 applies.
//   - A side with no royal on the board loses, in every mode (only a set
//     up position can reach this without royal capture).
//   - No legal action (CS-7) ends the game with the reason "stalemate"
//     unless a single royal is in check ("checkmate"); both lose.
//   - Relay (option): a friendly piece is defended by a relay piece if
//     the relay piece could capture on its square; it then also has the
//     relay piece's powers, for moves and for attacks (check). A relay
//     piece does not relay to itself, and relayed powers are not relayed
//     further.
//   - The 50-move rule counts actions (100 = 50 moves by each side) in the
//     variant state, because the core's counter cannot be reset by a hook;
//     the FEN halfmove field is this counter. MaxTurns caps the game at
//     that many turns of each side (the core's move cap in plies), counted
//     from the position the game started from, not from the csipgs-FEN's
//     move number; csipgs-FEN does not carry the count, so a position read
//     from it starts the count anew.
//   - Buys are priced with the design the slot's letter names at that
//     moment; two slots with one letter give one buy move.
//
// The design phase:
//   - LegalMoves lists "&-", re-adopting every design of the type table,
//     and each design of the game's catalogue (option DesignCatalogue,
//     default Catalogue) that the table does not hold. Any other valid
//     design is a legal move all the same: DecodeMove reads it, and the
//     Unlisted hook accepts it, so Position.Playable (which game records,
//     matches and protocols check) allows it.
//   - A new design takes the first letter outside the type table, else the
//     first letter that no slot (the replaced one excepted), board piece
//     or reserve piece uses. A text naming another free letter is read as
//     written. After a design change, table entries nothing uses are
//     dropped. A design already in the table must be re-adopted by its
//     letter. When two slots hold one letter, a change addresses the first
//     of them. Giving a slot the letter it holds is not a move.
//
// Notation:
//   - csipgs-FEN as in 3.9, with these additions: the side field is "w&"
//     or "b&" in the design phase (the treasury then shows the action's
//     result); holes are "*"; reserves are read in either case and written
//     in upper case; the type table is written in letter order; more than
//     16 pieces of one side (board and reserve) is an error.
//   - Moves: piece moves and transfers use the core's texts (e1e2, SAN
//     Ke2, N@e2); the proposal's long algebraic "Ke1-e2" and "Ne4xf6" are
//     read (DecodeMove) and written by FormatMove. A buy is written "+N",
//     because PGN reserves "$" for NAGs; "$N" is read too. A design change
//     is "&Q>Y=FfR" or "&Y>P", no change "&-".
//   - A turn is two plies, so a game record writes the proposal's
//     "action&design" as the R-PGN turn token "action,&design" (Ke1e2,&-).
//
// Moderated mode:
//   - The map is an FxR board (option MapSize, up to 16x16, "2x2b" for 2x2
//     sub-boards of 8x8); squares are named a1..p16 rather than "b2.a1".
//     The royals start on the middle file (files/2) of the first and last
//     rank. Terrain is a list of squares (option Terrain), allowed in
//     unmoderated games too, where it is visible. The option is Secret
//     (rules.Option): what is published of a moderated game in play, and
//     a record of the game as one player saw it, leave it out.
//   - Reach visibility shows every square a piece's legs reach on the
//     grid whatever their mode, a rider's line up to and including the
//     first square that is not empty (so terrain is seen where a line
//     meets it), the piece's own square, and the squares next to royals.
//   - The terrain each player has seen accumulates in the state; it is
//     not part of the position key or the FEN (a position read from FEN
//     knows the terrain visible in it).
//   - A view is a new position without history on a variant whose holes
//     are the terrain the viewer has seen: the viewer's pieces, the enemy
//     pieces on visible squares, both economies, and only the viewer's
//     seen terrain.
//   - A view's 50-move counter (its FEN's halfmove field) is always 0:
//     the true counter resets on captures, transfers, buys and pawn moves,
//     so it would tell whether an unseen action of the opponent was one.
//     A counter as the viewer could know it would need a per-player
//     record of what each saw; the moderator judges the 50-move rule on
//     the true position, and a search from a view does not foresee it.
//   - HideEconomy hides the opponent's treasury, reserve and design
//     slots (the view's EconomyHidden says so, and its position holds
//     zero for them). CS-M4 names the three together as what stays visible and
//     the option turns that off; the designs are economy too, since they
//     tell what the opponent can buy and bring next to its royals two
//     moves ahead. A hidden slot is "?" in the view and its FEN (the
//     designs field reads "PRNBKQ/??????"); it names no design, so in the
//     view the opponent can neither buy nor change designs, and its
//     design decisions are not observed (Observed). The view's type table
//     keeps only the designs the view itself uses: the viewer's slots and
//     reserve, and the pieces it sees on the board, whose design is seen
//     with them (a piece is of its type, and its type's design is how it
//     moves).
//   - A view also counts, by type, the opponent's pieces on the board it
//     does not show: buys and transfers are announced (the economy is
//     public) and a player sees its own captures, so a player knows how
//     many pieces of each type the opponent has out of sight, though not
//     where. Under HideEconomy it does not count them.
//   - Determinize keeps the view and puts those pieces on unseen empty
//     squares at random; if then no enemy royal is on the board, it puts
//     one royal of the opponent's first royal design (with its slots
//     hidden, of the first royal design of the view's type table) on a
//     random unseen empty square; unseen terrain is taken to be open.
//   - The Moderate hook is the moderator (rules.Position.Moderate, which
//     the server, matches, the terminal and package ai all use): a move
//     chosen from a view is judged by its text on the true position and
//     played as the move it stands for there if legal, otherwise refused
//     with a *Refusal. A piece move is read by its squares alone, so a
//     move onto a square the view shows empty captures an enemy piece
//     that stands there unseen. A new design chosen from a view may name
//     a letter that is free in the view but not in the true position; the
//     moderator reads it as "&Q>?=FfR", which leaves the letter to the
//     rules of the true position.
//
// The engine:
//   - The core's 26 types are placeholders worth 1 centipawn each
//     (PieceSpec.Value); the Eval hook cancels their count and scores the
//     designs' movement (on package eval's scale, half for a design that
//     cannot move forward, royals at half), the reserves (80% while the
//     royals have empty squares next to them, 50% beyond), the treasuries
//     (45 a zorkmid), a push toward the enemy royal and a mop-up term.
//   - The evaluation's terms (TermNames, eval.Terms) are those of Eval,
//     the design phase, and terms of the designs' movement on the board
//     (the moves of the non-royal pieces, their attacks on the squares
//     next to the enemy royals and on the royals, on the squares next to
//     their own, the royals' free squares, the pieces attacked and not
//     defended), 0 by default (the embedded file sets them). In the
//     moderated mode the engine evaluates the positions it determinizes;
//     the terms are the engine's alone and nothing of them goes into a
//     player's view.
//   - InCheck is check in the action phase only (never in the design
//     phase, nor under royal capture): a check takes effect when the turn
//     passes, so SAN marks it on the design decision ("&-+", "&-#").
//   - Tactical: a capturing piece move wins the victim's value, a royal
//     whose capture ends the game 20000.
//   - ActionsOnly gives a search a copy whose design phase offers "&-"
//     alone; ChooseDesign decides the design from the type table, the
//     catalogue and the designs GeneratedDesigns generates and prices,
//     by value for money: the change that gives the slots the best score,
//     if it gains more than MinDesignGain. Package ai plays the whole turn
//     with them.
package csipgs
