import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { byEntry, type LifecycleStage, type LifecycleStageEntered } from "./lifecycle-stage.ts";
import { requireFeatureInProject } from "./require-feature-in-project.ts";

/**
 * GET .../features/:featureName/lifecycle: the stages a flag entered, oldest first. `archived` is
 * read from the flag itself (`features.archived_at`), so it holds exactly while the flag is archived.
 */
export async function featureLifecycle(
  db: Kysely<Database>,
  path: { projectId: string; featureName: string },
): Promise<LifecycleStageEntered[]> {
  const { archivedAt } = await requireFeatureInProject(db, path);
  const rows = await db
    .selectFrom("feature_lifecycles")
    .select(["stage", "status", "entered_at"])
    .where("feature_name", "=", path.featureName)
    .where("stage", "!=", "archived")
    .execute();
  const stages: LifecycleStageEntered[] = rows.map((row) => ({
    stage: row.stage as LifecycleStage,
    ...(row.status ? { status: row.status } : {}),
    enteredStageAt: row.entered_at,
  }));
  if (archivedAt) stages.push({ stage: "archived", enteredStageAt: archivedAt });
  return stages.sort(byEntry);
}
