import { type Database, textRows } from "@vexil/db";
import { sql, type Transaction } from "kysely";

/** A flag an SDK reported evaluating in an environment. */
export interface FlagSeen {
  featureName: string;
  environment: string;
}

/**
 * The stages SDK reports move a flag into, as Unleash decides them: `pre-live` once it is seen in
 * any environment that exists, `live` once it is seen in an environment of type `production` where
 * it is on. A stage is entered once; archived flags stay where they are. One statement for the whole
 * flush, its rows in key order so that two instances flushing at once queue instead of deadlocking.
 */
export async function recordStagesSeen(trx: Transaction<Database>, seen: readonly FlagSeen[]): Promise<void> {
  if (seen.length === 0) return;
  const pairs = () =>
    trx
      .selectFrom(textRows("seen", { feature: seen.map((s) => s.featureName), environment: seen.map((s) => s.environment) }))
      .innerJoin("features as f", "f.name", "seen.feature")
      .innerJoin("environments as e", "e.name", "seen.environment")
      .where("f.archived_at", "is", null);
  const entered = pairs()
    .select(["seen.feature as feature_name", sql<string>`'pre-live'`.as("stage")])
    .unionAll(
      pairs()
        .innerJoin("feature_environments as fe", (join) =>
          join.onRef("fe.feature_name", "=", "seen.feature").onRef("fe.environment_name", "=", "seen.environment"),
        )
        .where("e.type", "=", "production")
        .where("fe.enabled", "=", true)
        .select(["seen.feature as feature_name", sql<string>`'live'`.as("stage")]),
    );
  await trx
    .insertInto("feature_lifecycles")
    .columns(["feature_name", "stage"])
    .expression((eb) =>
      eb.selectFrom(entered.as("s")).select(["s.feature_name", "s.stage"]).distinct().orderBy("s.feature_name").orderBy("s.stage"),
    )
    .onConflict((oc) => oc.columns(["feature_name", "stage"]).doNothing())
    .execute();
}
