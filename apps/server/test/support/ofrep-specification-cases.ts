import type { EvaluationDetails, FlagValue } from "@openfeature/server-sdk";
import { CONTEXT_FIELDS } from "@vexil/services";
import type { SpecFile } from "./specification-files.ts";

// The client specification's cases as an OpenFeature application asks them through an OFREP
// provider (docs/ofrep.md#ofrep), and how each answer is judged: shared by the server provider's
// test and the web provider's, so that both hold the providers to the same answers.

export type Details = EvaluationDetails<FlagValue>;

/** How many cases name a property like a context field (explained in docs/ofrep.md#ofrep): asserted, so that the list cannot grow unseen. */
export const EXPECTED_INEXPRESSIBLE = 0;

/** One case: the flag, the context as OpenFeature says it, and the judgement of what the provider read. */
export interface OfrepCase {
  description: string;
  key: string;
  /** Whether the file's state has the flag (an unknown one is the provider's FLAG_NOT_FOUND). */
  known: boolean;
  context: Record<string, string>;
  /** The code's default for the boolean ask: the opposite of the expected answer, so that a fallback to it fails the case. */
  booleanDefault: boolean;
  /** What is wrong with what the provider read, or undefined when it is the file's answer. */
  judge(got: Details): string | undefined;
}

/**
 * An Unleash context as an OpenFeature one: `userId` is the targeting key, the other fields
 * themselves, properties at the top. A property named like a field cannot be said that way.
 */
function openFeatureContext(context: Record<string, unknown>): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(context)) {
    if (key === "properties" || value === undefined || value === null) continue;
    out[key === "userId" ? "targetingKey" : key] = String(value);
  }
  for (const [name, value] of Object.entries((context.properties ?? {}) as Record<string, unknown>)) {
    if ((CONTEXT_FIELDS as readonly string[]).includes(name) || name === "targetingKey" || name in out) {
      return `the property "${name}" has the name of a context field`;
    }
    if (value !== undefined && value !== null) out[name] = String(value);
  }
  return out;
}

/** A payload as OFREP answers it: by its type (docs/ofrep.md#ofrep). */
function payloadValue(payload: { type: string; value: string }): unknown {
  if (payload.type === "number") return Number(payload.value);
  if (payload.type === "json") return JSON.parse(payload.value);
  return payload.value;
}

/**
 * A file's cases, but those of features in `skipped` (named in `refusedCases`) and those whose
 * context cannot be expressed (pushed to `inexpressible` with why).
 */
export function ofrepCases(
  fileName: string,
  file: SpecFile,
  skipped: Set<string>,
  inexpressible: string[],
): { cases: OfrepCase[]; refusedCases: string[] } {
  const cases: OfrepCase[] = [];
  const refusedCases: string[] = [];
  const known = new Set(file.state.features.map((f) => f.name));
  type SpecFeature = { name: string; variants?: unknown[]; strategies?: { variants?: unknown[] }[] };
  const withVariants = new Set(
    (file.state.features as SpecFeature[])
      .filter((f) => (f.variants?.length ?? 0) > 0 || (f.strategies ?? []).some((s) => (s.variants?.length ?? 0) > 0))
      .map((f) => f.name),
  );
  const add = (
    t: { description: string; context: Record<string, unknown>; toggleName: string },
    booleanDefault: boolean,
    judge: OfrepCase["judge"],
  ) => {
    if (skipped.has(t.toggleName)) {
      refusedCases.push(t.description);
      return;
    }
    const context = openFeatureContext(t.context);
    if (typeof context === "string") inexpressible.push(`${fileName}: ${t.description}: ${context}`);
    else cases.push({ description: t.description, key: t.toggleName, known: known.has(t.toggleName), context, booleanDefault, judge });
  };

  for (const t of file.tests ?? []) {
    add(t, !t.expectedResult, (got) => {
      let enabled: boolean | undefined;
      if (!known.has(t.toggleName)) enabled = got.errorCode === "FLAG_NOT_FOUND" ? false : got.value === true;
      // A boolean flag's value is its on/off, also when it is switched off (a kill switch must kill).
      else if (!withVariants.has(t.toggleName)) enabled = got.errorCode ? undefined : (got.value as boolean);
      // A variant flag's on/off is its metadata.enabled; switched off, it has no value to give.
      else enabled = (got.flagMetadata.enabled as boolean | undefined) ?? (got.errorCode ? false : undefined);
      return enabled === t.expectedResult ? undefined : `${t.description}: expected ${t.expectedResult}, got ${JSON.stringify(got)}`;
    });
  }
  for (const t of file.variantTests ?? []) {
    add(t, false, (got) => {
      const expected = t.expectedResult as {
        name: string;
        enabled: boolean;
        payload?: { type: string; value: string };
        feature_enabled?: boolean;
      };
      const problems: string[] = [];
      if (expected.enabled) {
        if (got.variant !== expected.name) problems.push(`variant ${got.variant}`);
        const value = expected.payload ? payloadValue(expected.payload) : expected.name;
        if (JSON.stringify(got.value) !== JSON.stringify(value)) problems.push(`value ${JSON.stringify(got.value)}`);
      } else if (got.variant !== undefined) problems.push(`variant ${got.variant}`);
      if (expected.feature_enabled !== undefined && (got.flagMetadata.enabled ?? false) !== expected.feature_enabled)
        problems.push(`metadata.enabled ${got.flagMetadata.enabled}`);
      return problems.length === 0
        ? undefined
        : `${t.description}: expected ${JSON.stringify(expected)}, got ${problems.join(", ")} (${JSON.stringify(got)})`;
    });
  }
  return { cases, refusedCases };
}

/**
 * What the provider reports besides a type mismatch that the server did not mean, if anything: a
 * flag the state does not have is FLAG_NOT_FOUND (the code's default, as an SDK's unknown flag is off).
 */
export function unexpectedErrorCode(c: OfrepCase, got: Details): boolean {
  if (!got.errorCode || got.errorCode === "TYPE_MISMATCH") return false;
  return !(got.errorCode === "FLAG_NOT_FOUND" && !c.known);
}
