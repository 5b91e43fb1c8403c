#!/usr/bin/env -S node --no-experimental-fetch
// gen-fsf.js writes reference perft lines for variant/testdata/perft/*.epd
// from Fairy-Stockfish (the npm package fairy-stockfish-nnue.wasm):
//
//	NODE_PATH=/path/to/node_modules node --no-experimental-fetch gen-fsf.js VARIANT SEED GAMES MAXNODES [FEN...]
//
// It plays GAMES random games of VARIANT from its start (moves drawn
// uniformly from Fairy-Stockfish's legal moves by a PRNG seeded with SEED,
// captures, drops and promotions preferred one time in two so that games
// reach end-games), keeps the positions after plies 12, 31, 50, 71, 90 ... of
// each game, and prints each as "FEN ;D1 n ;D2 n ..." with Fairy-Stockfish's
// own FEN (from `d`) and its `go perft` counts, deepening while the last
// count is below MAXNODES. FENs given after the arguments are printed the
// same way (hand-made positions: counting, palace, drops); a FEN given as
// "walk:FEN" is instead the start of a random walk of up to 40 plies,
// printed after each ply as "FEN ;moves m1 m2 ... ;fen FEN-AFTER" with
// Fairy-Stockfish's FEN after the moves (for the counting rules' fields).
"use strict";
const Stockfish = require("fairy-stockfish-nnue.wasm/stockfish.js");

function rng(seed) {
  let s = BigInt(seed) & 0xffffffffffffffffn;
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    z = z ^ (z >> 31n);
    return Number(z >> 11n) / 2 ** 53;
  };
}

async function main() {
  const [variant, seed, games, maxNodes, ...fens] = process.argv.slice(2);
  const engine = await Stockfish();
  let lines = [];
  let waiter = null;
  engine.addMessageListener((line) => {
    lines.push(line);
    if (waiter && waiter.done(line)) {
      const w = waiter;
      waiter = null;
      const out = lines;
      lines = [];
      w.resolve(out);
    }
  });
  const send = (cmd, done) =>
    new Promise((resolve) => {
      lines = [];
      waiter = { done, resolve };
      engine.postMessage(cmd);
    });
  await send("uci", (l) => l === "uciok");
  engine.postMessage("setoption name UCI_Variant value " + variant);
  await send("isready", (l) => l === "readyok");

  const perft = async (pos, d) => {
    engine.postMessage("position " + pos);
    const out = await send("go perft " + d, (l) => l.startsWith("Nodes searched"));
    const moves = out.filter((l) => /^\S+: \d+$/.test(l)).map((l) => l.split(":")[0]);
    const n = Number(out.find((l) => l.startsWith("Nodes searched")).split(":")[1]);
    return { moves, n };
  };
  const fenOf = async (pos) => {
    engine.postMessage("position " + pos);
    const out = await send("d", (l) => l.startsWith("Sfen") || l.startsWith("Key"));
    return out.find((l) => l.startsWith("Fen: ")).slice(5);
  };
  const line = async (pos) => {
    const fen = await fenOf(pos);
    let s = fen;
    for (let d = 1; d <= 6; d++) {
      const { n } = await perft("fen " + fen, d);
      s += ` ;D${d} ${n}`;
      if (n === 0 || n > Number(maxNodes)) break;
    }
    console.log(s);
  };

  const r = rng(seed);
  const keep = new Set([12, 31, 50, 71, 90, 111, 130, 149]);
  for (let g = 0; g < Number(games); g++) {
    const played = [];
    for (let ply = 1; ply <= 150; ply++) {
      const pos = "startpos" + (played.length ? " moves " + played.join(" ") : "");
      const { moves } = await perft(pos, 1);
      if (moves.length === 0) break;
      // Prefer captures (a destination holding a piece is not known here;
      // drops and promotions are), drops and promotions one time in two.
      const special = moves.filter((m) => m.includes("@") || /[a-z]\d+[a-z]\d+[a-z+]$/.test(m));
      const pool = special.length && r() < 0.5 ? special : moves;
      played.push(pool[Math.floor(r() * pool.length)]);
      if (keep.has(ply)) {
        await line("startpos moves " + played.join(" "));
      }
    }
  }
  for (const fen of fens) {
    if (!fen.startsWith("walk:")) {
      await line("fen " + fen);
      continue;
    }
    // A random walk of up to 40 plies from the position: after each ply,
    // the start, the moves and Fairy-Stockfish's FEN.
    const start = fen.slice(5);
    const played = [];
    for (let ply = 1; ply <= 40; ply++) {
      const pos = "fen " + start + (played.length ? " moves " + played.join(" ") : "");
      const { moves } = await perft(pos, 1);
      if (moves.length === 0) break;
      const special = moves.filter((m) => m.includes("@") || /[a-z]\d+[a-z]\d+[a-z+]$/.test(m));
      const pool = special.length && r() < 0.5 ? special : moves;
      played.push(pool[Math.floor(r() * pool.length)]);
      const after = await fenOf("fen " + start + " moves " + played.join(" "));
      console.log(`${start} ;moves ${played.join(" ")} ;fen ${after}`);
    }
  }
  engine.postMessage("quit");
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
