// MurmurHash3 x86 32-bit as `murmurhash3js` computes it for the SDK (docs/evaluation.md#hashing):
// each UTF-16 code unit contributes its low byte, and the key is `${groupId}:${id}`. The prefix
// `${groupId}:` is hashed once per strategy or flag; each call hashes only what follows it, from
// blocks of the id made once for as many calls as hash the same id in a row.

/** The SDK's seeds: strategies' rollouts hash with 0, variant selection with this one. */
export const STRATEGY_SEED = 0;
export const VARIANT_SEED = 86028157;

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** A key's first whole 4-byte blocks, already mixed, and the 0 to 3 code units after them as the low bytes of `restWord`. */
export interface HashPrefix {
  readonly state: number;
  readonly restLength: number;
  readonly restWord: number;
  readonly length: number;
}

const mixK = (k: number): number => Math.imul((Math.imul(k, C1) << 15) | (Math.imul(k, C1) >>> 17), C2);

function mixBlock(h: number, k: number): number {
  const h1 = h ^ mixK(k);
  return (Math.imul((h1 << 13) | (h1 >>> 19), 5) + 0xe6546b64) | 0;
}

/** Hashes the whole blocks of `prefix` with `seed`. */
export function hashPrefix(prefix: string, seed: number): HashPrefix {
  const whole = prefix.length - (prefix.length % 4);
  let h = seed;
  for (let i = 0; i < whole; i += 4) {
    const k =
      (prefix.charCodeAt(i) & 0xff) |
      ((prefix.charCodeAt(i + 1) & 0xff) << 8) |
      ((prefix.charCodeAt(i + 2) & 0xff) << 16) |
      ((prefix.charCodeAt(i + 3) & 0xff) << 24);
    h = mixBlock(h, k);
  }
  let restWord = 0;
  for (let i = whole; i < prefix.length; i++) restWord |= (prefix.charCodeAt(i) & 0xff) << ((i - whole) * 8);
  return { state: h, restLength: prefix.length - whole, restWord, length: prefix.length };
}

// A request hashes one id against every flag's prefix (its userId, say, a thousand times). The id's
// 4-byte blocks are made once, for each of the four places a prefix's rest can leave it at:
// `idWords[r][j]` is the block j of `rest + id` for a rest of r code units, with the rest's bytes
// left 0 (they are OR-ed in from the prefix) and 0 past the id's end (as the hash's tail wants).
let lastId: string | undefined;
let idWords: Int32Array[] = [];

function rememberId(id: string): void {
  const blocks = ((id.length + 3) >>> 2) + 1;
  const words = [0, 1, 2, 3].map(() => new Int32Array(blocks));
  for (let r = 0; r < 4; r++) {
    const w = words[r] as Int32Array;
    for (let i = 0; i < id.length; i++) {
      const at = i + r;
      w[at >>> 2] = (w[at >>> 2] as number) | ((id.charCodeAt(i) & 0xff) << ((at & 3) * 8));
    }
  }
  idWords = words;
  lastId = id;
}

/** The unsigned 32-bit hash of the prefix's key followed by `id`. */
export function hashAfter(prefix: HashPrefix, id: string): number {
  return hashWith(prefix.state, prefix.restLength, prefix.restWord, prefix.length, id) >>> 0;
}

/**
 * The same hash as a signed 32-bit number (`>>> 0` makes it hashAfter's), from the prefix's four
 * numbers given one by one (as the flat loop keeps them, inline in its plans). Signed, it is
 * returned as a small integer: an unsigned hash over 2^31 would be a new heap number at every call.
 */
export function hashWith(state: number, restLength: number, restWord: number, length: number, id: string): number {
  if (id !== lastId) rememberId(id);
  const words = idWords[restLength] as Int32Array;
  const n = restLength + id.length;
  const blocks = n >>> 2;
  let h = state;
  if (blocks > 0) {
    h = mixBlock(h, (words[0] as number) | restWord);
    for (let j = 1; j < blocks; j++) h = mixBlock(h, words[j] as number);
  }
  if ((n & 3) !== 0) h ^= mixK(blocks === 0 ? (words[0] as number) | restWord : (words[blocks] as number));
  h ^= length + id.length;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
