import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { LIFECYCLE_STAGES, type LifecycleStage } from "./lifecycle-stage.ts";

/**
 * GET /api/admin/lifecycle/count: how many flags are in each stage now. A flag's stage now is the
 * furthest it entered (archived, completed, live, pre-live, initial), as Unleash shows it on a flag.
 */
export async function lifecycleStageCount(db: Kysely<Database>): Promise<Record<LifecycleStage, number>> {
  const stages = sql`array[${sql.join(LIFECYCLE_STAGES.map((stage) => sql.lit(stage)))}]`;
  const furthest = sql<LifecycleStage>`(${stages})[max(array_position(${stages}, fl.stage))]`;
  const current = db
    .selectFrom("features as f")
    .innerJoin("feature_lifecycles as fl", "fl.feature_name", "f.name")
    .where("f.archived_at", "is", null)
    .where("fl.stage", "!=", "archived")
    .groupBy("f.name")
    .select(furthest.as("stage"));
  const rows = await db
    .selectFrom(current.as("c"))
    .select(["c.stage", (eb) => eb.fn.countAll<string>().as("count")])
    .groupBy("c.stage")
    .execute();
  const archived = await db
    .selectFrom("features")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("archived_at", "is not", null)
    .executeTakeFirstOrThrow();
  const counts = Object.fromEntries(LIFECYCLE_STAGES.map((stage) => [stage, 0])) as Record<LifecycleStage, number>;
  for (const row of rows) counts[row.stage] = Number(row.count);
  counts.archived = Number(archived.count);
  return counts;
}
