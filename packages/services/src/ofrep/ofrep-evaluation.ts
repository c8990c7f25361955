import type { FlagEvaluation } from "../frontend-evaluation/frontend-evaluator.ts";

/** OpenFeature's resolution reasons that Vexil answers (docs/ofrep.md#ofrep). */
type OfrepReason = "STATIC" | "TARGETING_MATCH" | "SPLIT" | "DEFAULT" | "DISABLED";

/** One flag's answer: OFREP's `evaluationSuccess`. No `value` means the provider uses the code's default. */
export interface OfrepEvaluation {
  key: string;
  reason: OfrepReason;
  variant?: string;
  value?: boolean | string | number | object;
  metadata: { enabled: boolean };
}

/** A variant's payload by its type: a number parsed, JSON parsed, anything else (or what does not parse) as text. */
function payloadValue(payload: { type: string; value: string }): string | number | object {
  if (payload.type === "number") {
    const number = Number(payload.value);
    return payload.value.trim() !== "" && Number.isFinite(number) ? number : payload.value;
  }
  if (payload.type === "json") {
    try {
      return JSON.parse(payload.value) as object;
    } catch {
      return payload.value;
    }
  }
  return payload.value;
}

/**
 * What OFREP answers for a flag evaluated for a context (docs/ofrep.md#ofrep). A flag
 * without variants answers a boolean; one with variants answers its variant's payload (or name);
 * a flag with variants that is switched off, or gives the context none, answers no value.
 */
export function ofrepEvaluation(flag: FlagEvaluation): OfrepEvaluation {
  const key = flag.name;
  const metadata = { enabled: flag.enabled };
  // A boolean flag switched off answers false, as the Unleash SDKs do: a kill switch must not fall back to the code's default.
  if (!flag.switchedOn)
    return flag.hasVariants ? { key, reason: "DISABLED", metadata } : { key, reason: "DISABLED", value: false, metadata };
  if (!flag.hasVariants) {
    if (!flag.enabled) return { key, reason: "DEFAULT", value: false, metadata };
    return { key, reason: flag.hasStrategies ? "TARGETING_MATCH" : "STATIC", value: true, metadata };
  }
  if (!flag.variant.enabled) return { key, reason: "DEFAULT", metadata };
  return {
    key,
    reason: flag.variantFromStrategy ? "TARGETING_MATCH" : "SPLIT",
    variant: flag.variant.name,
    value: flag.variant.payload ? payloadValue(flag.variant.payload) : flag.variant.name,
    metadata,
  };
}
