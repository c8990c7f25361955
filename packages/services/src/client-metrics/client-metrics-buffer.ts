import { parseInput } from "../errors/parse-input.ts";
import { clientMetricsSchema } from "./client-metrics-input.ts";

/** Counts summed per feature, environment, application and hour, waiting to be stored. */
export interface MetricCounts {
  featureName: string;
  environment: string;
  appName: string;
  hour: Date;
  yes: number;
  no: number;
  variants: Map<string, number>;
  /** When the latest report that counted an evaluation (yes or no above 0) arrived; null while none did. */
  seenAt: Date | null;
}

export interface ClientMetricsBuffer {
  /** Validates one SDK report and adds it to what is pending; throws a ValidationError for a bad one. */
  add(environment: string, input: unknown): void;
  /** Takes everything pending, leaving the buffer empty. */
  drain(): MetricCounts[];
  /** Adds drained counts back, when they could not be stored. */
  restore(counts: MetricCounts): void;
  readonly pending: number;
}

const HOUR_MS = 3_600_000;
// A flood of distinct names must not grow the buffer without end: past this, new keys are dropped until the next flush.
const MAX_PENDING = 100_000;

/**
 * SDKs report every few seconds per instance; summing the reports in memory and storing them in
 * batches keeps those writes off the path of the feature polls (docs/sdk-protocols.md#metrics).
 */
export function createClientMetricsBuffer(): ClientMetricsBuffer {
  let pending = new Map<string, MetricCounts>();
  const addCounts = (from: MetricCounts): void => {
    const key = JSON.stringify([from.featureName, from.environment, from.appName, from.hour.getTime()]);
    let counts = pending.get(key);
    if (!counts) {
      if (pending.size >= MAX_PENDING) return;
      counts = { ...from, yes: 0, no: 0, variants: new Map(), seenAt: null };
      pending.set(key, counts);
    }
    counts.yes += from.yes;
    counts.no += from.no;
    if (from.seenAt && (!counts.seenAt || counts.seenAt < from.seenAt)) counts.seenAt = from.seenAt;
    for (const [variant, n] of from.variants) counts.variants.set(variant, (counts.variants.get(variant) ?? 0) + n);
  };
  return {
    add(environment, input) {
      const metrics = parseInput(clientMetricsSchema, input, "", "The metrics");
      const hour = new Date(Math.floor(metrics.bucket.start.getTime() / HOUR_MS) * HOUR_MS);
      // Seen when the report arrived, by this server's clock: an SDK's clock may be off (docs/flag-lifecycle.md#lifecycle-and-last-seen).
      const arrived = new Date();
      for (const [featureName, toggle] of Object.entries(metrics.bucket.toggles)) {
        const variants = new Map(Object.entries(toggle.variants ?? {}));
        const seenAt = toggle.yes + toggle.no > 0 ? arrived : null;
        addCounts({ featureName, environment, appName: metrics.appName, hour, yes: toggle.yes, no: toggle.no, variants, seenAt });
      }
    },
    restore: addCounts,
    drain() {
      const drained = [...pending.values()];
      pending = new Map();
      return drained;
    },
    get pending() {
      return pending.size;
    },
  };
}
