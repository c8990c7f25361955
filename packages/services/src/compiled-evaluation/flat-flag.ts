import type { FrontendContext } from "../frontend-evaluation/frontend-context.ts";
import type { Check } from "./compiled-constraint.ts";
import { type ContextRead, readContext } from "./context-reader.ts";
import { type HashPrefix, hashWith } from "./murmur-hash.ts";

// The flat loop (docs/evaluation.md#the-flat-loop): the frontend API asks every flag for one context,
// and a chain of closures per flag (the flag, its strategy, its checks, its rollout, its variants)
// is a walk through memory that costs more than the checks and hashes it leads to. The usual
// flags (default and flexible rollouts, constraints, variants without overrides, no parents) are
// laid out here as plain data and decided by one function; any other flag, and any call that would
// draw at random, is decided by the flag's closures, which give the same answers.

/**
 * One constraint for the flat loop: an IN or NOT_IN as data (it holds when whether `values` has
 * the value read is `expect`), or any other by its compiled check.
 */
export class ConstraintStep {
  constructor(
    readonly check: Check | undefined,
    readonly read: ContextRead | undefined,
    readonly values: ReadonlySet<string> | undefined,
    readonly expect: boolean,
  ) {}
}

/** How a plan reads the id it hashes: the default stickiness (each its own fields), or a context value. */
export const BY_DEFAULT = 0;
export const BY_READ = 1;

/** A plan that hashes: its `${groupId}:` prefix's four numbers, inline (see murmur-hash.ts). */
abstract class HashedPlan {
  readonly state: number;
  readonly restLength: number;
  readonly restWord: number;
  readonly length: number;
  constructor(prefix: HashPrefix) {
    this.state = prefix.state;
    this.restLength = prefix.restLength;
    this.restWord = prefix.restWord;
    this.length = prefix.length;
  }
}

/**
 * A strategy without variants as data: its constraints in order, then its rollout, if it has one:
 * the hash's prefix, the percentage, and how the id is read.
 */
export class StrategyPlan extends HashedPlan {
  constructor(
    readonly steps: readonly ConstraintStep[],
    readonly rollout: boolean,
    readonly by: number,
    readonly read: ContextRead | undefined,
    prefix: HashPrefix,
    readonly percentage: number,
  ) {
    super(prefix);
  }
}

/** A variant list without overrides as data: the hash's prefix, the weights and their sum, the stickiness. */
export class VariantPlan extends HashedPlan {
  constructor(
    prefix: HashPrefix,
    readonly totalWeight: number,
    readonly weights: readonly number[],
    readonly by: number,
    readonly read: ContextRead | undefined,
  ) {
    super(prefix);
  }
}

/** The SDK's walk over the weights to `target` (1 to their sum): the index of the variant it lands in, or -1. */
export function weightedIndex(weights: readonly number[], target: number): number {
  let counter = 0;
  for (let i = 0; i < weights.length; i++) {
    const weight = weights[i] as number;
    if (weight === 0) continue;
    counter += weight;
    if (counter < target) continue;
    return i;
  }
  return -1;
}

/** One flag for the flat loop: its plan, or `flat` false for a flag decided by its closures alone. */
export class FlatFlag<O> {
  constructor(
    readonly decide: (context: FrontendContext) => O,
    readonly flat: boolean,
    readonly strategies: readonly StrategyPlan[],
    readonly noStrategies: boolean,
    readonly variants: VariantPlan | undefined,
    readonly notOn: O,
    readonly plain: O,
    readonly outcomes: readonly O[],
  ) {}
}

/** What a strategy answers: held, not held, or "would draw at random" (left to the closures). */
const HELD = 1;
const NOT_HELD = 0;
const DRAWS = -1;

function strategyHolds(s: StrategyPlan, ctx: FrontendContext): number {
  const steps = s.steps;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as ConstraintStep;
    if (step.check !== undefined) {
      if (!step.check(ctx)) return NOT_HELD;
    } else if ((step.values as ReadonlySet<string>).has(readContext(step.read as ContextRead, ctx) as string) !== step.expect)
      return NOT_HELD;
  }
  if (!s.rollout) return HELD;
  if (s.by === BY_DEFAULT) {
    // Default stickiness: the userId, else the sessionId, else a random draw.
    const id = ctx.userId || ctx.sessionId;
    if (!id) return DRAWS;
    return ((hashWith(s.state, s.restLength, s.restWord, s.length, id) >>> 0) % 100) + 1 <= s.percentage ? HELD : NOT_HELD;
  }
  const id = readContext(s.read as ContextRead, ctx);
  return id && ((hashWith(s.state, s.restLength, s.restWord, s.length, id) >>> 0) % 100) + 1 <= s.percentage ? HELD : NOT_HELD;
}

/** The flag's answer for the context: what its `decide` answers, from its plan when it has one. */
export function decideFlat<O>(f: FlatFlag<O>, ctx: FrontendContext): O {
  if (!f.flat) return f.decide(ctx);
  let found = f.noStrategies;
  for (let i = 0; !found && i < f.strategies.length; i++) {
    const held = strategyHolds(f.strategies[i] as StrategyPlan, ctx);
    if (held === DRAWS) return f.decide(ctx);
    found = held === HELD;
  }
  if (!found) return f.notOn;
  const v = f.variants;
  if (v === undefined || v.totalWeight <= 0) return f.plain;
  const seed = v.by === BY_DEFAULT ? ctx.userId || ctx.sessionId || ctx.remoteAddress : readContext(v.read as ContextRead, ctx);
  // Without a seed the SDK draws one at random.
  if (!seed) return f.decide(ctx);
  const target = ((hashWith(v.state, v.restLength, v.restWord, v.length, seed) >>> 0) % v.totalWeight) + 1;
  const picked = weightedIndex(v.weights, target);
  return picked >= 0 ? (f.outcomes[picked] as O) : f.plain;
}
