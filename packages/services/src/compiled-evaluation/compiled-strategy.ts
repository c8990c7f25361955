import { createRequire } from "node:module";
import { Address4 } from "ip-address";
import type { Strategy } from "unleash-client/lib/strategy/index.js";
import type { ClientStrategy } from "../client-features/client-feature.ts";
import type { Constraint } from "../strategies/constraint.ts";
import { type Check, compileConstraint, constraintStep, NEVER } from "./compiled-constraint.ts";
import { type VariantDefinition, type VariantPicker, compileVariants } from "./compiled-variants.ts";
import { contextRead, contextReader } from "./context-reader.ts";
import { BY_DEFAULT, BY_READ, type ConstraintStep, StrategyPlan } from "./flat-flag.ts";
import { hashAfter, hashPrefix, STRATEGY_SEED } from "./murmur-hash.ts";

const { defaultStrategies } = createRequire(import.meta.url)("unleash-client/lib/strategy/index.js") as { defaultStrategies: Strategy[] };
// applicationHostname answers by this instance's host name and the strategy's parameters only:
// asked once per strategy, of the SDK's own instance (it reads the host name as the SDK does).
const applicationHostname = defaultStrategies.find((s) => s.name === "applicationHostname") as Strategy;

/** A strategy compiled once per snapshot: whether it holds for a context, and its variants when it has some. */
export interface CompiledStrategy {
  readonly holds: Check;
  /** The strategy's variants as served, and the picker over them; absent when it has none. */
  readonly variants?: { readonly definitions: readonly VariantDefinition[]; readonly pick: VariantPicker };
  /** The same strategy as data for the flat loop (docs/evaluation.md#the-flat-loop), when it is one the loop knows. */
  readonly plan?: StrategyPlan;
}

type Parameters = Record<string, unknown>;
const ALWAYS: Check = () => true;

/** The SDK's normalised value of a rollout: 1 to 100, from `${groupId}:${id}`. */
const rolloutHash = (groupId: unknown) => {
  const prefix = hashPrefix(`${groupId}:`, STRATEGY_SEED);
  return (id: string) => (hashAfter(prefix, id) % 100) + 1;
};

/** gradualRolloutUserId and gradualRolloutSessionId: the field at the context's top, its hash against the percentage. */
function gradualRollout(p: Parameters, field: "userId" | "sessionId"): Check {
  const percentage = Number(p.percentage);
  if (!(percentage > 0)) return NEVER;
  const normalized = rolloutHash(p.groupId || "");
  return (ctx) => {
    const id = ctx[field];
    return !!id && normalized(id) <= percentage;
  };
}

/** flexibleRollout: the stickiness value (random when `random`, or `default` without userId and sessionId), its hash against the rollout. */
function flexibleRollout(p: Parameters): Check {
  const percentage = Number(p.rollout);
  if (!(percentage > 0)) return NEVER;
  // The SDK's groupId falls back to the context's featureToggle, which the frontend's context never has.
  const normalized = rolloutHash(p.groupId || "");
  const stickiness = p.stickiness || "default";
  const random = () => `${Math.round(Math.random() * 10000) + 1}`;
  if (stickiness === "random") return percentage >= 100 ? ALWAYS : () => normalized(random()) <= percentage;
  if (stickiness === "default") {
    if (percentage >= 100) return ALWAYS;
    return (ctx) => normalized(ctx.userId || ctx.sessionId || random()) <= percentage;
  }
  const read = contextReader(String(stickiness));
  return (ctx) => {
    const id = read(ctx);
    return !!id && normalized(id) <= percentage;
  };
}

function remoteAddress(p: Parameters): Check {
  if (!p.IPs) return NEVER;
  const ranges = String(p.IPs)
    .split(/\s*,\s*/)
    .map((range) => {
      try {
        return { range, subnet: new Address4(range) as Address4 | undefined };
      } catch {
        return { range, subnet: undefined };
      }
    });
  return (ctx) => {
    // The SDK's context has no remoteAddress when it is empty.
    const address = ctx.remoteAddress || undefined;
    let parsed: Address4 | null | undefined;
    for (const { range, subnet } of ranges) {
      if (range === address) return true;
      if (!subnet) continue;
      if (parsed === undefined) {
        try {
          parsed = new Address4(address || "");
        } catch {
          parsed = null;
        }
      }
      try {
        if (parsed?.isInSubnet(subnet)) return true;
      } catch {
        // The SDK's try answers false for this range.
      }
    }
    return false;
  };
}

const NO_STEPS: readonly ConstraintStep[] = [];
/** The prefix of a plan without a rollout, which nothing hashes. */
const NO_PREFIX = hashPrefix("", STRATEGY_SEED);

/**
 * The test of a default strategy or a flexible rollout that draws nothing at random by its
 * parameters, as the flat loop's plan with these constraints; undefined when it is not one of those.
 */
function strategyPlan(name: string, p: Parameters, steps: readonly ConstraintStep[]): StrategyPlan | undefined {
  if (name === "default") return new StrategyPlan(steps, false, BY_DEFAULT, undefined, NO_PREFIX, 100);
  if (name !== "flexibleRollout") return undefined;
  const percentage = Number(p.rollout);
  const stickiness = p.stickiness || "default";
  if (!(percentage > 0) || stickiness === "random") return undefined;
  const prefix = hashPrefix(`${p.groupId || ""}:`, STRATEGY_SEED);
  if (stickiness === "default") return new StrategyPlan(steps, percentage < 100, BY_DEFAULT, undefined, prefix, percentage);
  const read = contextRead(String(stickiness));
  return read && new StrategyPlan(steps, true, BY_READ, read, prefix, percentage);
}

/** The strategy's own test, without its constraints; undefined for a strategy the SDK does not know. */
function strategyTest(name: string, p: Parameters): Check | undefined {
  switch (name) {
    case "default":
      return ALWAYS;
    case "applicationHostname":
      try {
        return applicationHostname.isEnabled(p, {}) ? ALWAYS : NEVER;
      } catch (error) {
        // Parameters the SDK's test throws on throw there at every call.
        return () => {
          throw error;
        };
      }
    case "gradualRolloutRandom": {
      const percentage = Number(p.percentage);
      if (percentage >= 100) return ALWAYS;
      if (!(percentage >= 1)) return NEVER;
      return () => percentage >= Math.floor(Math.random() * 100) + 1;
    }
    case "gradualRolloutUserId":
      return gradualRollout(p, "userId");
    case "gradualRolloutSessionId":
      return gradualRollout(p, "sessionId");
    case "userWithId": {
      const ids = new Set(p.userIds ? String(p.userIds).split(/\s*,\s*/) : []);
      return (ctx) => ctx.userId !== undefined && ctx.userId !== "" && ids.has(ctx.userId);
    }
    case "remoteAddress":
      return remoteAddress(p);
    case "flexibleRollout":
      return flexibleRollout(p);
    default:
      return undefined;
  }
}

/**
 * One strategy compiled (docs/evaluation.md#strategies): its constraints and those of its
 * segments (a segment that does not exist is a constraint that fails) checked in the SDK's order,
 * then its own test. Undefined for a strategy the SDK does not know, which it skips as false.
 */
export function compileStrategy(
  s: ClientStrategy,
  segments: ReadonlyMap<number, { constraints?: Constraint[] | null }>,
): CompiledStrategy | undefined {
  const p = (s.parameters ?? {}) as Parameters;
  const test = strategyTest(s.name, p);
  if (!test) return undefined;
  const constraints: (Constraint | undefined)[] = [...(s.constraints ?? [])];
  for (const id of s.segments ?? []) {
    const segment = segments.get(id);
    if (segment) constraints.push(...(segment.constraints ?? []));
    else constraints.push(undefined);
  }
  const checks = constraints.map(compileConstraint);
  const all = [...checks, test];
  const holds: Check =
    all[0] === NEVER
      ? NEVER
      : all.length === 1
        ? test
        : (ctx) => {
            for (const check of all) if (!check(ctx)) return false;
            return true;
          };
  const definitions = s.variants as VariantDefinition[] | undefined;
  if (!Array.isArray(definitions) || definitions.length === 0) {
    const plan = strategyPlan(s.name, p, constraints.length === 0 ? NO_STEPS : constraints.map(constraintStep));
    return plan === undefined ? { holds } : { holds, plan };
  }
  const stickiness = definitions[0]?.stickiness || p.stickiness;
  return { holds, variants: { definitions, pick: compileVariants(p.groupId, stickiness, definitions).pick } };
}
