import type { ClientFeature, ClientFeatureSet, ClientSegment } from "../client-features/client-feature.ts";
import type { FrontendContext } from "../frontend-evaluation/frontend-context.ts";
import type { FlagEvaluation, FrontendEvaluator, FrontendToggle } from "../frontend-evaluation/frontend-evaluator.ts";
import type { Check } from "./compiled-constraint.ts";
import { type CompiledStrategy, compileStrategy } from "./compiled-strategy.ts";
import { compileVariants, type VariantDefinition } from "./compiled-variants.ts";
import { decideFlat, FlatFlag, type StrategyPlan } from "./flat-flag.ts";

/** One answer a flag can give, built once per snapshot and shared by every call that gives it (read-only). */
interface Outcome {
  readonly on: boolean;
  readonly variantName: string;
  /** What `evaluate` lists for it; only when `on`. */
  readonly toggle: FrontendToggle | undefined;
  /** The toggle as JSON.stringify writes it, for `evaluateJson`; only when `on`. */
  readonly toggleJson: string | undefined;
  readonly evaluation: FlagEvaluation;
}

interface CompiledFlag {
  readonly feature: ClientFeature;
  readonly hasDependencies: boolean;
  /** Whether its parents are as it requires; linked once every flag is compiled (a parent may come later). */
  parents: Check;
  /** The SDK's isFeatureEnabled: the switch, the parents, the strategies. */
  readonly isOn: Check;
  /** The SDK's forceGetVariant, as the answer it makes. */
  readonly decide: (context: FrontendContext) => Outcome;
  /** The same answers for the frontend API's loop over every flag (docs/evaluation.md#the-flat-loop). */
  readonly flat: FlatFlag<Outcome>;
  /** Whether the texts of all its toggles are ASCII. */
  readonly ascii: boolean;
}

type Payload = { type: string; value: string } | null | undefined;

/** The frontend API's answer around the toggles. */
const ANSWER_START = '{"toggles":[';
const ANSWER_END = "]}";

/** Frozen, since one object answers many calls: a caller that wrote to it would change every later answer. */
function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) if (inner !== null && typeof inner === "object") deepFreeze(inner);
  return Object.freeze(value);
}

/** The outcomes of one flag, keyed by what decides them, with the frontend's answer shapes (as frontend-evaluator builds them). */
function outcomesOf(feature: ClientFeature) {
  const strategies = (Array.isArray(feature.strategies) ? feature.strategies : []) as { variants?: { name: string }[] }[];
  const strategyVariantNames = new Set(strategies.flatMap((s) => (Array.isArray(s.variants) ? s.variants.map((v) => v.name) : [])));
  const hasVariants = (feature.variants?.length ?? 0) > 0 || strategies.some((s) => (s.variants?.length ?? 0) > 0);
  const hasStrategies = strategies.length > 0;
  let ascii = true;
  const outcome = (switchedOn: boolean, on: boolean, name: string, enabled: boolean, payload: Payload): Outcome => {
    const shown = payload ? { payload: Object.freeze({ type: payload.type, value: payload.value }) } : {};
    const toggle = on
      ? {
          name: feature.name,
          enabled: true as const,
          variant: { name, enabled, ...shown, feature_enabled: true },
          impressionData: feature.impressionData === true,
        }
      : undefined;
    const toggleJson = toggle && JSON.stringify(toggle);
    // Text is ASCII when its UTF-8 is a byte per code unit (anything else takes two bytes or more).
    if (toggleJson !== undefined && Buffer.byteLength(toggleJson) !== toggleJson.length) ascii = false;
    return deepFreeze({
      on,
      variantName: name,
      toggle,
      toggleJson,
      evaluation: {
        name: feature.name,
        switchedOn,
        enabled: on,
        variant: { name, enabled, ...shown },
        hasVariants,
        hasStrategies,
        variantFromStrategy: enabled && strategyVariantNames.has(name),
      },
    });
  };
  const variantOutcomes = (definitions: readonly VariantDefinition[]) =>
    definitions.map((v) => outcome(true, true, v.name, true, v.payload));
  return {
    switchedOff: outcome(false, false, "disabled", false, undefined),
    notOn: outcome(true, false, "disabled", false, undefined),
    plain: outcome(true, true, "disabled", false, undefined),
    variantOutcomes,
    /** Whether the toggles' texts made so far are all ASCII. */
    isAscii: () => ascii,
  };
}

/** The flag's own variants: the picker (and its plan) and an outcome per variant, or undefined when it has none. */
function flagVariants(feature: ClientFeature, variantOutcomes: (d: readonly VariantDefinition[]) => Outcome[]) {
  const definitions = feature.variants as VariantDefinition[] | undefined;
  if (!Array.isArray(definitions) || definitions.length === 0) return undefined;
  const { pick, plan } = compileVariants(feature.name, definitions[0]?.stickiness ?? undefined, definitions);
  return { pick, plan, outcomes: variantOutcomes(definitions) };
}

function compileFlag(feature: ClientFeature, segments: ReadonlyMap<number, ClientSegment>): CompiledFlag {
  const { switchedOff, notOn, plain, variantOutcomes, isAscii } = outcomesOf(feature);
  const strategiesOk = Array.isArray(feature.strategies);
  const compiled = (strategiesOk ? feature.strategies : [])
    .map((s) => compileStrategy(s, segments))
    .filter((s): s is CompiledStrategy => s !== undefined);
  const strategyOutcomes = compiled.map((s) => (s.variants ? variantOutcomes(s.variants.definitions) : []));
  const own = flagVariants(feature, variantOutcomes);
  const noStrategies = strategiesOk && feature.strategies.length === 0;
  const switchedOn = feature.enabled;

  // The switch is read before the parents: the answer is the SDK's, which asks the parents first (only
  // the random draws a parent would make differ, and they are not compared per call: docs/evaluation.md#random-draws).
  const hasDependencies = (feature.dependencies?.length ?? 0) > 0;
  const plans = compiled.map((s) => (s.variants ? undefined : s.plan));
  const flat = strategiesOk && !hasDependencies && (!own || own.plan !== undefined) && plans.every((plan) => plan !== undefined);
  const decide = (ctx: FrontendContext): Outcome => {
    if (!switchedOn) return switchedOff;
    if (!strategiesOk || (flag.hasDependencies && !flag.parents(ctx))) return notOn;
    let found = noStrategies;
    for (let i = 0; !found && i < compiled.length; i++) {
      const s = compiled[i] as CompiledStrategy;
      if (!s.holds(ctx)) continue;
      found = true;
      if (s.variants) {
        const picked = s.variants.pick(ctx);
        if (picked >= 0) return (strategyOutcomes[i] as Outcome[])[picked] as Outcome;
      }
    }
    if (!found) return notOn;
    if (!own) return plain;
    const picked = own.pick(ctx);
    return picked >= 0 ? (own.outcomes[picked] as Outcome) : plain;
  };
  const flag: CompiledFlag = {
    feature,
    hasDependencies,
    parents: () => true,
    isOn: (ctx) => {
      if (!switchedOn || !strategiesOk || (flag.hasDependencies && !flag.parents(ctx))) return false;
      if (noStrategies) return true;
      for (const s of compiled) if (s.holds(ctx)) return true;
      return false;
    },
    decide,
    ascii: isAscii(),
    flat: new FlatFlag(
      decide,
      flat && !!switchedOn,
      flat ? (plans as StrategyPlan[]) : [],
      noStrategies,
      own?.plan,
      notOn,
      plain,
      own?.outcomes ?? [],
    ),
  };
  return flag;
}

/** The SDK's isParentDependencySatisfied over compiled parents (docs/evaluation.md#dependencies). */
function linkParents(flag: CompiledFlag, byName: ReadonlyMap<string, CompiledFlag>): void {
  const dependencies = flag.feature.dependencies ?? [];
  if (dependencies.length === 0) return;
  const checks: Check[] = dependencies.map((dependency) => {
    const parent = byName.get(dependency.feature);
    if (!parent || parent.hasDependencies) return () => false;
    if (dependency.enabled !== false) {
      const variants = dependency.variants;
      if (variants?.length) {
        return (ctx) => {
          const outcome = parent.decide(ctx);
          return outcome.on && variants.includes(outcome.variantName);
        };
      }
      return parent.isOn;
    }
    return (ctx) => !parent.isOn(ctx);
  });
  flag.parents = (ctx) => {
    for (const check of checks) if (!check(ctx)) return false;
    return true;
  };
}

/**
 * The frontend evaluator compiled from one snapshot (docs/evaluation.md): the same answers as the
 * SDK's evaluator (createFrontendEvaluator, the reference, held to it by
 * evaluator-differential.test.ts), with every flag turned into closures once, so that a call only
 * reads the context and compares. `evaluated` is told of every evaluation, as there.
 */
export function createCompiledEvaluator(set: ClientFeatureSet, evaluated: () => void = () => {}): FrontendEvaluator {
  // The features as an SDK parses them from the client API, as the reference reads them.
  const served = JSON.parse(JSON.stringify({ features: set.features, segments: set.segments })) as {
    features: ClientFeature[];
    segments: ClientSegment[];
  };
  const segments = new Map(served.segments.map((s) => [s.id, s]));
  const flags = served.features.map((f) => compileFlag(f, segments));
  const byName = new Map(flags.map((f) => [f.feature.name, f]));
  for (const flag of flags) linkParents(flag, byName);
  // The flags the frontend API can list, as the flat loop reads them (in one array, in order).
  const candidates = flags.filter((f) => f.feature.enabled).map((f) => f.flat);

  // Whether every toggle's text is ASCII, as JSON.stringify writes most (it escapes control characters, not the rest).
  const ascii = flags.every((f) => f.ascii);
  /** The toggles on for the context, each as the text written once with its outcome, joined. */
  const joinedToggles = (context: FrontendContext): string => {
    evaluated();
    const parts: string[] = [];
    for (const flag of candidates) {
      const json = decideFlat(flag, context).toggleJson;
      if (json !== undefined) parts.push(json);
    }
    return parts.join(",");
  };

  return {
    evaluate(context) {
      evaluated();
      const on: FrontendToggle[] = [];
      for (const flag of candidates) {
        const outcome = decideFlat(flag, context);
        if (outcome.toggle) on.push(outcome.toggle);
      }
      return on;
    },
    evaluateJson(context) {
      return `${ANSWER_START}${joinedToggles(context)}${ANSWER_END}`;
    },
    evaluateBody(context) {
      const toggles = joinedToggles(context);
      if (!ascii) return Buffer.from(`${ANSWER_START}${toggles}${ANSWER_END}`);
      // ASCII text is its own UTF-8: its code units are copied as bytes, without the encoder.
      const body = Buffer.allocUnsafe(ANSWER_START.length + toggles.length + ANSWER_END.length);
      body.write(ANSWER_START, 0, "latin1");
      body.write(toggles, ANSWER_START.length, "latin1");
      body.write(ANSWER_END, ANSWER_START.length + toggles.length, "latin1");
      return body;
    },
    evaluateFlag(name, context) {
      evaluated();
      return byName.get(name)?.decide(context).evaluation;
    },
    evaluateEvery(context) {
      evaluated();
      return flags.map((flag) => flag.decide(context).evaluation);
    },
  };
}
