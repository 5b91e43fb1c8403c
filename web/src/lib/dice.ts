// Fair dice: checks, in the page, that a finished game's rolls followed
// from the seed the server committed to at the start. New games' dice are
// Go's math/rand/v2 ChaCha8 with a 256-bit seed (game.NewChaCha8Roller);
// games stored before use PCG-DXSM seeded (seed, 0x76617a6972)
// (game.NewRoller). Each roll is Rand.IntN(den), the outcome the first
// whose cumulative numerator exceeds the roll (rules.Choose); the
// commitment is "sha256:" and the hex SHA-256 of "anychess rng\n", the RNG
// tag ("ChaCha8:<64 hex digits>" or "PCG:<seed>"), "\n" and the nonce
// (game.Commitment).

const M64 = (1n << 64n) - 1n;
const M128 = (1n << 128n) - 1n;
const MUL = (2549297995355413924n << 64n) | 4865540595714422341n;
const INC = (6364136223846793005n << 64n) | 1442695040888963407n;
const CHEAP_MUL = 0xda942042e4dd58b5n;
export const STREAM = 0x76617a6972n;

// Source is a generator of uniform 64-bit numbers, as Go's rand.Source.
export interface Source {
  uint64(): bigint;
}

// Roller is a Source that rolls dice (Rand.IntN); lastFace is the face
// (1-based) choose last rolled with it.
export interface Roller extends Source {
  intN(n: number): number;
  lastFace?: number;
}

// PCG is Go's rand.PCG.
export class PCG implements Roller {
  state: bigint;
  lastFace?: number;

  constructor(seed1: bigint, seed2: bigint) {
    this.state = ((BigInt.asUintN(64, seed1) << 64n) | BigInt.asUintN(64, seed2)) & M128;
  }

  uint64(): bigint {
    this.state = (this.state * MUL + INC) & M128;
    let hi = this.state >> 64n;
    const lo = this.state & M64;
    hi ^= hi >> 32n;
    hi = (hi * CHEAP_MUL) & M64;
    hi ^= hi >> 48n;
    hi = (hi * (lo | 1n)) & M64;
    return hi;
  }

  intN(n: number): number { return intN(this, n); }
}

// intN is Go's Rand.IntN (on a 64-bit machine) for 0 < n < 2^63, drawing
// from src.uint64().
export function intN(src: Source, count: number | bigint): number {
  const n = BigInt(count);
  if ((n & (n - 1n)) === 0n) return Number(src.uint64() & (n - 1n));
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

// chachaBlock is Go's internal/chacha8rand block: four ChaCha8 blocks
// (counters counter..counter+3) of the key seed (eight 32-bit words, little
// end first), interleaved word by word, the constant and counter words not
// added back; it returns them as 32 uint64s, as Go reads them on a
// little-endian machine.
function chachaBlock(seed: Uint32Array, counter: number): bigint[] {
  const b = new Uint32Array(64); // word w of lane i at w*4+i
  const consts = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];
  for (let i = 0; i < 4; i++) {
    for (let w = 0; w < 4; w++) b[w * 4 + i] = consts[w];
    for (let w = 0; w < 8; w++) b[(4 + w) * 4 + i] = seed[w];
    b[12 * 4 + i] = (counter + i) >>> 0;
  }
  const x = new Uint32Array(16);
  const qr = (a: number, bb: number, c: number, d: number) => {
    x[a] += x[bb]; x[d] ^= x[a]; x[d] = (x[d] << 16) | (x[d] >>> 16);
    x[c] += x[d]; x[bb] ^= x[c]; x[bb] = (x[bb] << 12) | (x[bb] >>> 20);
    x[a] += x[bb]; x[d] ^= x[a]; x[d] = (x[d] << 8) | (x[d] >>> 24);
    x[c] += x[d]; x[bb] ^= x[c]; x[bb] = (x[bb] << 7) | (x[bb] >>> 25);
  };
  for (let i = 0; i < 4; i++) {
    for (let w = 0; w < 16; w++) x[w] = b[w * 4 + i];
    for (let round = 0; round < 4; round++) {
      qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15);
      qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14);
    }
    for (let w = 0; w < 16; w++) b[w * 4 + i] = w >= 4 && w < 12 ? b[w * 4 + i] + x[w] : x[w];
  }
  const out: bigint[] = new Array(32);
  for (let k = 0; k < 32; k++) out[k] = BigInt(b[2 * k]) | (BigInt(b[2 * k + 1]) << 32n);
  return out;
}

// ChaCha8 is Go's rand.ChaCha8 (internal/chacha8rand): blocks of 32
// uint64s at counters 0, 4, 8 and 12, the last 4 of the fourth kept back
// as the next key.
export class ChaCha8 implements Roller {
  seed: Uint32Array;
  c: number;
  buf: bigint[];
  i: number;
  n: number;
  lastFace?: number;

  // key is 32 bytes (a Uint8Array) or 64 hex digits.
  constructor(seedKey: Uint8Array | string) {
    let key: Uint8Array;
    if (typeof seedKey === 'string') {
      if (!/^[0-9a-f]{64}$/.test(seedKey)) throw new Error('a ChaCha8 seed is 64 lower-case hex digits');
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

  refill(): void {
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

  uint64(): bigint {
    if (this.i >= this.n) this.refill();
    return this.buf[this.i++];
  }

  intN(n: number): number { return intN(this, n); }
}

// Outcome is one outcome of a move decided by chance: its probability
// "num/den" and its label.
export interface Outcome {
  p: string;
  label?: string;
}

// choose returns the outcome the roller r draws among outcomes given as
// {p: "num/den"} (rules.Choose).
export function choose(r: Roller, outcomes: Outcome[]): number {
  if (outcomes.length <= 1) return 0;
  const den = parseInt(outcomes[0].p.split('/')[1], 10);
  const u = r.intN(den);
  r.lastFace = u + 1;
  let acc = 0;
  for (let i = 0; i < outcomes.length; i++) {
    acc += parseInt(outcomes[i].p.split('/')[0], 10);
    if (u < acc) return i;
  }
  return outcomes.length - 1;
}

// commitment returns game.Commitment for the RNG tag tag ("ChaCha8:<hex>"
// or "PCG:<decimal>") and nonce.
export async function commitment(tag: string, nonce: string): Promise<string> {
  const data = new TextEncoder().encode(`anychess rng\n${tag}\n${nonce}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return 'sha256:' + Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

// roller returns the dice of generator gen ("ChaCha8" or "PCG") and seed
// as the state's dice give them.
export function roller(gen: string, seed: string): Roller {
  if (gen === 'ChaCha8') return new ChaCha8(seed);
  if (gen === 'PCG' && /^[0-9]{1,20}$/.test(seed) && BigInt(seed) <= M64) return new PCG(BigInt(seed), STREAM);
  throw new Error(`dice ${gen}:${seed}: not a generator and seed this page knows`);
}

// Dice is the state's dice: the commitment, and once the game ends the
// generator, seed and nonce.
export interface Dice {
  commit: string;
  gen?: string;
  seed?: string;
  nonce?: string;
}

// RolledPly is what verify reads of a ply event: its outcomes, the one
// chosen and the face rolled.
export interface RolledPly {
  ply: number;
  outcomes?: Outcome[];
  outcome?: number;
  roll?: number;
}

// Verdict is verify's answer.
export interface Verdict {
  ok: boolean;
  rolls: number;
  error: string;
}

// verify checks a finished game's dice: dice is the state's {commit, gen,
// seed, nonce}, plies the game's ply events in order. It returns {ok,
// rolls, error}.
export async function verify(dice: Dice | null | undefined, plies: RolledPly[]): Promise<Verdict> {
  if (!dice || !dice.seed) return { ok: false, rolls: 0, error: 'the seed is not revealed yet' };
  const gen = dice.gen || 'PCG';
  if (await commitment(`${gen}:${dice.seed}`, String(dice.nonce)) !== dice.commit) {
    return { ok: false, rolls: 0, error: 'the revealed seed and nonce do not give the commitment' };
  }
  let r: Roller;
  try {
    r = roller(gen, dice.seed);
  } catch (e) {
    return { ok: false, rolls: 0, error: e instanceof Error ? e.message : String(e) };
  }
  let rolls = 0;
  for (const e of plies) {
    if (!e.outcomes || e.outcomes.length <= 1) continue;
    const k = choose(r, e.outcomes);
    if (k !== (e.outcome || 0) || (e.roll && e.roll !== r.lastFace)) {
      return { ok: false, rolls, error: `ply ${e.ply}: the seed rolls ${r.lastFace} (outcome ${k}), the game had ${e.roll || '?'} (outcome ${e.outcome || 0})` };
    }
    rolls++;
  }
  return { ok: true, rolls, error: '' };
}
