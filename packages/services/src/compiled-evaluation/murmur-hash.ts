// MurmurHash3 x86 32-bit as `murmurhash3js` computes it for the SDK (docs/evaluation.md#hashing):
// each UTF-16 code unit contributes its low byte, and the key is `${groupId}:${id}`. The prefix
// `${groupId}:` is hashed once per strategy or flag; each call hashes only what follows it.

/** The SDK's seeds: strategies' rollouts hash with 0, variant selection with this one. */
export const STRATEGY_SEED = 0;
export const VARIANT_SEED = 86028157;

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** A key's first whole 4-byte blocks, already mixed; `rest` holds the 0 to 3 code units after them. */
export interface HashPrefix {
  readonly state: number;
  readonly rest: string;
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
  return { state: h, rest: prefix.slice(whole), length: prefix.length };
}

/** The byte at `i` of `rest + id`, read without joining them. */
const byteAt = (rest: string, restLength: number, id: string, i: number): number =>
  (i < restLength ? rest.charCodeAt(i) : id.charCodeAt(i - restLength)) & 0xff;

/** The unsigned 32-bit hash of the prefix's key followed by `id`. */
export function hashAfter(prefix: HashPrefix, id: string): number {
  const rest = prefix.rest;
  const restLength = rest.length;
  const n = restLength + id.length;
  const remainder = n % 4;
  const whole = n - remainder;
  let h = prefix.state;
  let i = 0;
  for (; i < whole; i += 4) {
    const k =
      byteAt(rest, restLength, id, i) |
      (byteAt(rest, restLength, id, i + 1) << 8) |
      (byteAt(rest, restLength, id, i + 2) << 16) |
      (byteAt(rest, restLength, id, i + 3) << 24);
    h = mixBlock(h, k);
  }
  if (remainder > 0) {
    let k = 0;
    if (remainder === 3) k ^= byteAt(rest, restLength, id, i + 2) << 16;
    if (remainder >= 2) k ^= byteAt(rest, restLength, id, i + 1) << 8;
    k ^= byteAt(rest, restLength, id, i);
    h ^= mixK(k);
  }
  h ^= prefix.length + id.length;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
