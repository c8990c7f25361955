import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { inRetriedTransaction } from "../transactions/in-transaction.ts";
import { recordStagesSeen } from "../feature-lifecycle/record-stages-seen.ts";
import { recordUnknownFlags } from "../usage/record-unknown-flags.ts";
import type { MetricCounts } from "./client-metrics-buffer.ts";
import { type LastSeen, storeLastSeen } from "./store-last-seen.ts";

const CHUNK = 500;

/**
 * Adds drained counts to the stored sums, stamps when each flag was last seen and moves it into the
 * lifecycle stages that implies, in one transaction; counts of unknown features are dropped, their
 * names recorded as unknown flags (docs/usage.md#unknown-flags). The reported flags' rows are
 * locked first, in name order, as every writer of a flag locks its row before writing anything of
 * it: a flush that wrote a flag's rows (or what triggers write for them) before waiting for its row
 * would deadlock with a toggle or a tag change of that flag. Every statement after writes its rows
 * in key order. A deadlock lost all the same is retried: the flush only adds what it drained.
 */
export async function storeClientMetrics(db: Kysely<Database>, counts: MetricCounts[]): Promise<number> {
  if (counts.length === 0) return 0;
  return inRetriedTransaction(db, async (trx) => {
    // One statement, so that the rows are locked in the database's order of names, as other writers lock them.
    const rows = await trx
      .selectFrom("features")
      .select("name")
      .where((eb) => eb("name", "=", eb.fn.any(eb.val([...new Set(counts.map((c) => c.featureName))]))))
      .orderBy("name")
      .forNoKeyUpdate()
      .execute();
    const known = new Set(rows.map((row) => row.name));
    const kept = counts.filter((c) => known.has(c.featureName)).sort(byKey);
    for (let i = 0; i < kept.length; i += CHUNK) {
      const chunk = kept.slice(i, i + CHUNK);
      await trx
        .insertInto("client_metrics")
        .values(
          chunk.map((c) => ({
            feature_name: c.featureName,
            environment: c.environment,
            app_name: c.appName,
            hour: c.hour,
            yes: c.yes,
            no: c.no,
          })),
        )
        .onConflict((oc) =>
          oc.columns(["feature_name", "environment", "app_name", "hour"]).doUpdateSet((eb) => ({
            yes: eb("client_metrics.yes", "+", eb.ref("excluded.yes")),
            no: eb("client_metrics.no", "+", eb.ref("excluded.no")),
          })),
        )
        .execute();
      const variants = chunk.flatMap((c) =>
        [...c.variants]
          .sort(([a], [b]) => compare(a, b))
          .map(([variant, count]) => ({
            feature_name: c.featureName,
            environment: c.environment,
            app_name: c.appName,
            hour: c.hour,
            variant,
            count,
          })),
      );
      if (variants.length === 0) continue;
      await trx
        .insertInto("client_metric_variants")
        .values(variants)
        .onConflict((oc) =>
          oc
            .columns(["feature_name", "environment", "app_name", "hour", "variant"])
            .doUpdateSet((eb) => ({ count: eb("client_metric_variants.count", "+", eb.ref("excluded.count")) })),
        )
        .execute();
    }
    const seen = lastSeenOf(kept);
    await storeLastSeen(trx, seen);
    await recordStagesSeen(trx, seen);
    await recordUnknownFlags(
      trx,
      counts.filter((c) => !known.has(c.featureName)),
    );
    return kept.length;
  });
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The order of the client_metrics key, so that every flush locks rows in the same order. */
function byKey(a: MetricCounts, b: MetricCounts): number {
  return (
    compare(a.featureName, b.featureName) ||
    compare(a.environment, b.environment) ||
    compare(a.appName, b.appName) ||
    a.hour.getTime() - b.hour.getTime()
  );
}

/** When each flag was last seen in each environment, from the counts of reports that evaluated it. */
function lastSeenOf(counts: readonly MetricCounts[]): LastSeen[] {
  const latest = new Map<string, LastSeen>();
  for (const c of counts) {
    if (!c.seenAt) continue;
    const key = JSON.stringify([c.featureName, c.environment]);
    const found = latest.get(key);
    if (!found) latest.set(key, { featureName: c.featureName, environment: c.environment, seenAt: c.seenAt });
    else if (found.seenAt < c.seenAt) found.seenAt = c.seenAt;
  }
  return [...latest.values()];
}
