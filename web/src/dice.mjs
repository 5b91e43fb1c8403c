// Fair dice: checks, in the page, that a finished game's rolls followed
// from the seed the server committed to at the start. The dice are Go's
// math/rand/v2 PCG-DXSM seeded (seed, 0x76617a6972) (game.NewRoller), each
// roll Rand.IntN(den), the outcome the first whose cumulative numerator
// exceeds the roll (rules.Choose); the commitment is "sha256:" and the hex
// SHA-256 of "anychess rng\n", "PCG:<seed>", "\n" and the nonce
// (game.Commitment).

const M64 = (1n << 64n) - 1n;
const M128 = (1n << 128n) - 1n;
const MUL = (2549297995355413924n << 64n) | 4865540595714422341n;
const INC = (6364136223846793005n << 64n) | 1442695040888963407n;
const CHEAP_MUL = 0xda942042e4dd58b5n;
export const STREAM = 0x76617a6972n;

// PCG is Go's rand.PCG.
export class PCG {
  constructor(seed1, seed2) {
    this.state = ((BigInt.asUintN(64, seed1) << 64n) | BigInt.asUintN(64, seed2)) & M128;
  }

  uint64() {
    this.state = (this.state * MUL + INC) & M128;
    let hi = this.state >> 64n;
    const lo = this.state & M64;
    hi ^= hi >> 32n;
    hi = (hi * CHEAP_MUL) & M64;
    hi ^= hi >> 48n;
    hi = (hi * (lo | 1n)) & M64;
    return hi;
  }

  // intN is Go's Rand.IntN for 0 < n < 2^63.
  intN(n) {
    n = BigInt(n);
    if ((n & (n - 1n)) === 0n) return Number(this.uint64() & (n - 1n));
    let prod = this.uint64() * n;
    let lo = prod & M64;
    if (lo < n) {
      const thresh = ((1n << 64n) - n) % n;
      while (lo < thresh) {
        prod = this.uint64() * n;
        lo = prod & M64;
      }
    }
    return Number(prod >> 64n);
  }
}

// choose returns the outcome the roller r draws among outcomes given as
// {p: "num/den"} (rules.Choose).
export function choose(r, outcomes) {
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

// commitment returns game.Commitment(seed, nonce); seed is a decimal string.
export async function commitment(seed, nonce) {
  const data = new TextEncoder().encode(`anychess rng\nPCG:${seed}\n${nonce}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return 'sha256:' + Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

// verify checks a finished game's dice: dice is the state's {commit, seed,
// nonce}, plies the game's ply events in order. It returns {ok, rolls,
// error}.
export async function verify(dice, plies) {
  if (!dice || !dice.seed) return { ok: false, rolls: 0, error: 'the seed is not revealed yet' };
  if (await commitment(dice.seed, dice.nonce) !== dice.commit) {
    return { ok: false, rolls: 0, error: 'the revealed seed and nonce do not give the commitment' };
  }
  const r = new PCG(BigInt(dice.seed), STREAM);
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
