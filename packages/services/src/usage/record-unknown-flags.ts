import type { Database } from "@vexil/db";
import { sql, type Transaction } from "kysely";
import type { MetricCounts } from "../client-metrics/client-metrics-buffer.ts";

/** The most unknown flags one flush records; the rest of a flood of made-up names is dropped (docs/usage.md#unknown-flags). */
const MAX_PER_FLUSH = 1000;
const CHUNK = 500;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Records the flags SDKs reported that do not exist, per application and environment, moving each
 * one's `seen_at` forward only. Rows are written in key order, so that two instances flushing at
 * once queue instead of deadlocking.
 */
export async function recordUnknownFlags(trx: Transaction<Database>, unknown: readonly MetricCounts[], now = new Date()): Promise<void> {
  const latest = new Map<string, { name: string; app_name: string; environment: string; seen_at: Date }>();
  for (const c of unknown) {
    const key = JSON.stringify([c.featureName, c.appName, c.environment]);
    const seenAt = c.seenAt ?? now;
    const found = latest.get(key);
    if (found) {
      if (found.seen_at < seenAt) found.seen_at = seenAt;
    } else if (latest.size < MAX_PER_FLUSH) {
      latest.set(key, { name: c.featureName, app_name: c.appName, environment: c.environment, seen_at: seenAt });
    }
  }
  const rows = [...latest.values()].sort(
    (a, b) => compare(a.name, b.name) || compare(a.app_name, b.app_name) || compare(a.environment, b.environment),
  );
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto("unknown_flags")
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc
          .columns(["name", "app_name", "environment"])
          .doUpdateSet({ seen_at: sql<Date>`greatest(unknown_flags.seen_at, excluded.seen_at)` }),
      )
      .execute();
  }
}
