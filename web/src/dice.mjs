// Built by build.mjs from lib/dice.ts for node; do not edit.
var __defProp = Object.defineProperty;
var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
var __publicField = (obj, key, value) => __defNormalProp(obj, typeof key !== "symbol" ? key + "" : key, value);
const M64 = (1n << 64n) - 1n;
const M128 = (1n << 128n) - 1n;
const MUL = 2549297995355413924n << 64n | 4865540595714422341n;
const INC = 6364136223846793005n << 64n | 1442695040888963407n;
const CHEAP_MUL = 0xda942042e4dd58b5n;
const STREAM = 0x76617a6972n;
class PCG {
  constructor(seed1, seed2) {
    __publicField(this, "state");
    __publicField(this, "lastFace");
    this.state = (BigInt.asUintN(64, seed1) << 64n | BigInt.asUintN(64, seed2)) & M128;
  }
  uint64() {
    this.state = this.state * MUL + INC & M128;
    let hi = this.state >> 64n;
    const lo = this.state & M64;
    hi ^= hi >> 32n;
    hi = hi * CHEAP_MUL & M64;
    hi ^= hi >> 48n;
    hi = hi * (lo | 1n) & M64;
    return hi;
  }
  intN(n) {
    return intN(this, n);
  }
}
function intN(src, count) {
  const n = BigInt(count);
  if ((n & n - 1n) === 0n) return Number(src.uint64() & n - 1n);
  let prod = src.uint64() * n;
  let lo = prod & M64;
  if (lo < n) {
    const thresh = ((1n << 64n) - n) % n;
    while (lo < thresh) {
      prod = src.uint64() * n;
      lo = prod & M64;
    }
  }
  return Number(prod >> 64n);
}
function chachaBlock(seed, counter) {
  const b = new Uint32Array(64);
  const consts = [1634760805, 857760878, 2036477234, 1797285236];
  for (let i = 0; i < 4; i++) {
    for (let w = 0; w < 4; w++) b[w * 4 + i] = consts[w];
    for (let w = 0; w < 8; w++) b[(4 + w) * 4 + i] = seed[w];
    b[12 * 4 + i] = counter + i >>> 0;
  }
  const x = new Uint32Array(16);
  const qr = (a, bb, c, d) => {
    x[a] += x[bb];
    x[d] ^= x[a];
    x[d] = x[d] << 16 | x[d] >>> 16;
    x[c] += x[d];
    x[bb] ^= x[c];
    x[bb] = x[bb] << 12 | x[bb] >>> 20;
    x[a] += x[bb];
    x[d] ^= x[a];
    x[d] = x[d] << 8 | x[d] >>> 24;
    x[c] += x[d];
    x[bb] ^= x[c];
    x[bb] = x[bb] << 7 | x[bb] >>> 25;
  };
  for (let i = 0; i < 4; i++) {
    for (let w = 0; w < 16; w++) x[w] = b[w * 4 + i];
    for (let round = 0; round < 4; round++) {
      qr(0, 4, 8, 12);
      qr(1, 5, 9, 13);
      qr(2, 6, 10, 14);
      qr(3, 7, 11, 15);
      qr(0, 5, 10, 15);
      qr(1, 6, 11, 12);
      qr(2, 7, 8, 13);
      qr(3, 4, 9, 14);
    }
    for (let w = 0; w < 16; w++) b[w * 4 + i] = w >= 4 && w < 12 ? b[w * 4 + i] + x[w] : x[w];
  }
  const out = new Array(32);
  for (let k = 0; k < 32; k++) out[k] = BigInt(b[2 * k]) | BigInt(b[2 * k + 1]) << 32n;
  return out;
}
class ChaCha8 {
  // key is 32 bytes (a Uint8Array) or 64 hex digits.
  constructor(seedKey) {
    __publicField(this, "seed");
    __publicField(this, "c");
    __publicField(this, "buf");
    __publicField(this, "i");
    __publicField(this, "n");
    __publicField(this, "lastFace");
    let key;
    if (typeof seedKey === "string") {
      if (!/^[0-9a-f]{64}$/.test(seedKey)) throw new Error("a ChaCha8 seed is 64 lower-case hex digits");
      key = Uint8Array.from(seedKey.match(/../g) || [], (h) => parseInt(h, 16));
    } else key = seedKey;
    const dv = new DataView(key.buffer, key.byteOffset, 32);
    this.seed = new Uint32Array(8);
    for (let w = 0; w < 8; w++) this.seed[w] = dv.getUint32(4 * w, true);
    this.c = 0;
    this.buf = chachaBlock(this.seed, 0);
    this.i = 0;
    this.n = 32;
  }
  refill() {
    this.c += 4;
    if (this.c === 16) {
      for (let k = 0; k < 4; k++) {
        const v = this.buf[28 + k];
        this.seed[2 * k] = Number(v & 0xffffffffn);
        this.seed[2 * k + 1] = Number(v >> 32n);
      }
      this.c = 0;
    }
    this.buf = chachaBlock(this.seed, this.c);
    this.i = 0;
    this.n = this.c === 12 ? 28 : 32;
  }
  uint64() {
    if (this.i >= this.n) this.refill();
    return this.buf[this.i++];
  }
  intN(n) {
    return intN(this, n);
  }
}
function choose(r, outcomes) {
  if (outcomes.length <= 1) return 0;
  const den = parseInt(outcomes[0].p.split("/")[1], 10);
  const u = r.intN(den);
  r.lastFace = u + 1;
  let acc = 0;
  for (let i = 0; i < outcomes.length; i++) {
    acc += parseInt(outcomes[i].p.split("/")[0], 10);
    if (u < acc) return i;
  }
  return outcomes.length - 1;
}
async function commitment(tag, nonce) {
  const data = new TextEncoder().encode(`anychess rng
${tag}
${nonce}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return "sha256:" + Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
function roller(gen, seed) {
  if (gen === "ChaCha8") return new ChaCha8(seed);
  if (gen === "PCG" && /^[0-9]{1,20}$/.test(seed) && BigInt(seed) <= M64) return new PCG(BigInt(seed), STREAM);
  throw new Error(`dice ${gen}:${seed}: not a generator and seed this page knows`);
}
async function verify(dice, plies) {
  if (!dice || !dice.seed) return { ok: false, rolls: 0, error: "the seed is not revealed yet" };
  const gen = dice.gen || "PCG";
  if (await commitment(`${gen}:${dice.seed}`, String(dice.nonce)) !== dice.commit) {
    return { ok: false, rolls: 0, error: "the revealed seed and nonce do not give the commitment" };
  }
  let r;
  try {
    r = roller(gen, dice.seed);
  } catch (e) {
    return { ok: false, rolls: 0, error: e instanceof Error ? e.message : String(e) };
  }
  let rolls = 0;
  for (const e of plies) {
    if (!e.outcomes || e.outcomes.length <= 1) continue;
    const k = choose(r, e.outcomes);
    if (k !== (e.outcome || 0) || e.roll && e.roll !== r.lastFace) {
      return { ok: false, rolls, error: `ply ${e.ply}: the seed rolls ${r.lastFace} (outcome ${k}), the game had ${e.roll || "?"} (outcome ${e.outcome || 0})` };
    }
    rolls++;
  }
  return { ok: true, rolls, error: "" };
}
export {
  ChaCha8,
  PCG,
  STREAM,
  choose,
  commitment,
  intN,
  roller,
  verify
};
