import type { FrontendContext } from "../frontend-evaluation/frontend-context.ts";
import { type ContextReader, contextRead, contextReader } from "./context-reader.ts";
import { BY_DEFAULT, BY_READ, VariantPlan, weightedIndex } from "./flat-flag.ts";
import { type HashPrefix, hashAfter, hashPrefix, VARIANT_SEED } from "./murmur-hash.ts";

/** A variant definition as served: a flag's own or a strategy's (weights are numbers, overrides lists of values). */
export interface VariantDefinition {
  name: string;
  weight: number;
  stickiness?: string | null;
  payload?: { type: string; value: string } | null;
  overrides?: { contextName: string; values: string[] }[] | null;
}

/** Picks the index of a variant for a context, or -1 where the SDK picks none. */
export type VariantPicker = (context: FrontendContext) => number;

/** The SDK's random seed when the stickiness has no value: a whole number 0 to 100,000, as text. */
const randomSeed = () => String(Math.round(Math.random() * 100000));

/**
 * What the SDK's `selectVariantDefinition` does, compiled once per list
 * (docs/evaluation.md#variants): the total weight summed here, each override's values in a set,
 * the hash's `${groupId}:` prefix mixed here. `stickiness` undefined means `default` (the first of
 * userId, sessionId, remoteAddress at the context's top, else a random seed); any other names a
 * context value, random when it has none. With it, the same list as data for the flat loop when
 * no variant has overrides (docs/evaluation.md#the-flat-loop).
 */
export function compileVariants(
  groupId: unknown,
  stickiness: unknown,
  variants: readonly VariantDefinition[],
): { pick: VariantPicker; plan: VariantPlan | undefined } {
  // The same sum as the SDK (a weight that is not a number makes it NaN, which is not <= 0 there either).
  const totalWeight = variants.reduce((acc: number, v) => acc + v.weight, 0);
  const weights = variants.map((v) => v.weight);
  const prefix = hashPrefix(`${groupId}:`, VARIANT_SEED);
  const named = stickiness === undefined || stickiness === "default" ? undefined : contextReader(String(stickiness));
  // The stickiness read as data, unless it reads a fixed text (which the picker reads as such).
  const read = named === undefined ? undefined : contextRead(String(stickiness));
  const plan =
    (named === undefined || read !== undefined) &&
    variants.every((v) => !v.overrides || (Array.isArray(v.overrides) && v.overrides.length === 0))
      ? new VariantPlan(prefix, totalWeight, weights, read === undefined ? BY_DEFAULT : BY_READ, read)
      : undefined;
  return { pick: picker(totalWeight, weights, prefix, named, variants), plan };
}

/** The picker over the list: overrides first, then the hash of the stickiness against the weights. */
function picker(
  totalWeight: number,
  weights: readonly number[],
  prefix: HashPrefix,
  named: ContextReader | undefined,
  variants: readonly VariantDefinition[],
): VariantPicker {
  if (totalWeight <= 0) return () => -1;
  const overrides: { index: number; reads: { read: ContextReader; values: ReadonlySet<string> }[] }[] = [];
  variants.forEach((v, index) => {
    if (!v.overrides) return;
    overrides.push({ index, reads: v.overrides.map((o) => ({ read: contextReader(o.contextName), values: new Set(o.values) })) });
  });
  const seedOf = named
    ? (ctx: FrontendContext) => named(ctx) || randomSeed()
    : (ctx: FrontendContext) => ctx.userId || ctx.sessionId || ctx.remoteAddress || randomSeed();

  return (ctx) => {
    for (const o of overrides) {
      for (const { read, values } of o.reads) if (values.has(read(ctx) as string)) return o.index;
    }
    return weightedIndex(weights, (hashAfter(prefix, seedOf(ctx)) % totalWeight) + 1);
  };
}
