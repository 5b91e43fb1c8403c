#!/usr/bin/env -S node --no-experimental-fetch
// fsf-uci.js runs Fairy-Stockfish (the npm package fairy-stockfish-nnue.wasm)
// as a UCI engine on standard input and output, with the variant
// definitions of variants.ini (beside this file) loaded into the module's
// in-memory file system and named by VariantPath, so that
//
//	anychess match -variant greatshatranj -p2 uci:tools/fairy-stockfish/fsf-uci.js
//
// can play it. Install the package first: npm ci --prefix tools/fairy-stockfish
"use strict";
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const Stockfish = require("fairy-stockfish-nnue.wasm/stockfish.js");

async function main() {
  const engine = await Stockfish();
  const ini = fs.readFileSync(path.join(__dirname, "variants.ini"));
  engine.FS.writeFile("/variants.ini", ini);
  engine.postMessage("setoption name VariantPath value /variants.ini");
  const input = readline.createInterface({ input: process.stdin });
  for await (const line of input) {
    if (line.trim() === "quit") {
      break;
    }
    engine.postMessage(line);
  }
  engine.postMessage("quit");
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
