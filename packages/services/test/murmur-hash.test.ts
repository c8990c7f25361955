import { createRequire } from "node:module";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { hashAfter, hashPrefix, STRATEGY_SEED, VARIANT_SEED } from "../src/compiled-evaluation/murmur-hash.ts";
import { seeded } from "./support/generated-flags.ts";

// The compiled evaluator's hash against the SDK's own normalisers (docs/evaluation.md#hashing):
// the id's blocks are kept between calls, so ids are hashed in runs against several groups, as a
// request hashes one userId against every flag, and the run changes id at random.

const { normalizedStrategyValue, normalizedVariantValue } = createRequire(import.meta.url)("unleash-client/lib/strategy/util.js") as {
  normalizedStrategyValue(id: string, groupId: string): number;
  normalizedVariantValue(id: string, groupId: string, normalizer: number): number;
};

/** Text of up to `max` code units: mostly ASCII, a tenth beyond Latin-1 (whose low byte is what counts). */
function text(r: () => number, max: number): string {
  let out = "";
  const length = Math.floor(r() * (max + 1));
  for (let i = 0; i < length; i++) out += String.fromCharCode(r() < 0.1 ? 256 + Math.floor(r() * 0x2f00) : 32 + Math.floor(r() * 95));
  return out;
}

test("100,000 keys: the rollout and variant values are the SDK's, ids repeated across groups", () => {
  const r = seeded(28);
  let id = "";
  for (let i = 0; i < 100_000; i++) {
    if (i === 0 || r() < 0.3) id = text(r, 14);
    const group = text(r, 12);
    const weight = 1 + Math.floor(r() * 1000);
    assert.is((hashAfter(hashPrefix(`${group}:`, STRATEGY_SEED), id) % 100) + 1, normalizedStrategyValue(id, group), `${group}:${id}`);
    assert.is(
      (hashAfter(hashPrefix(`${group}:`, VARIANT_SEED), id) % weight) + 1,
      normalizedVariantValue(id, group, weight),
      `${group}:${id} / ${weight}`,
    );
  }
});

test.run();
