import { type Database, textRows } from "@vexil/db";
import { sql, type Transaction } from "kysely";
import type { FlagSeen } from "../feature-lifecycle/record-stages-seen.ts";

/** When a flag was last reported in an environment, once per flag and environment. */
export interface LastSeen extends FlagSeen {
  seenAt: Date;
}

/**
 * Moves `last_seen_at` of each flag, and of each flag in each environment that exists, forward to
 * when it was last seen; never back, so a flush that carries older reports (another instance's, a
 * retried one) changes nothing. One statement per table for the whole flush; the caller holds the
 * flags' rows already (storeClientMetrics locks them first, in name order). Unknown flags are skipped.
 */
export async function storeLastSeen(trx: Transaction<Database>, seen: readonly LastSeen[]): Promise<void> {
  if (seen.length === 0) return;
  const latest = new Map<string, Date>();
  for (const s of seen) {
    const at = latest.get(s.featureName);
    if (!at || at < s.seenAt) latest.set(s.featureName, s.seenAt);
  }
  const flags = textRows("seen", { feature: [...latest.keys()], seen_at: [...latest.values()].map((d) => d.toISOString()) });
  const seenAt = sql<Date>`seen.seen_at::timestamptz`;
  await trx
    .updateTable("features")
    .from(flags)
    .set({ last_seen_at: seenAt })
    .whereRef("features.name", "=", "seen.feature")
    .where((eb) => eb.or([eb("features.last_seen_at", "is", null), eb("features.last_seen_at", "<", seenAt)]))
    .execute();

  const perEnvironment = textRows("seen", {
    feature: seen.map((s) => s.featureName),
    environment: seen.map((s) => s.environment),
    seen_at: seen.map((s) => s.seenAt.toISOString()),
  });
  await trx
    .insertInto("feature_environments")
    .columns(["feature_name", "environment_name", "last_seen_at"])
    .expression((eb) =>
      eb
        .selectFrom(perEnvironment)
        .innerJoin("features as f", "f.name", "seen.feature")
        .innerJoin("environments as e", "e.name", "seen.environment")
        .select(["seen.feature", "seen.environment", seenAt.as("seen_at")])
        .orderBy("seen.feature")
        .orderBy("seen.environment"),
    )
    .onConflict((oc) =>
      oc
        .columns(["feature_name", "environment_name"])
        .doUpdateSet({ last_seen_at: (eb) => eb.ref("excluded.last_seen_at") })
        .where((eb) =>
          eb.or([
            eb("feature_environments.last_seen_at", "is", null),
            eb("feature_environments.last_seen_at", "<", eb.ref("excluded.last_seen_at")),
          ]),
        ),
    )
    .execute();
}
