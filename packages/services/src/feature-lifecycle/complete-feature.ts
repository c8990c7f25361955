import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { parseInput } from "../errors/parse-input.ts";
import { appendEvent } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { completedInputSchema } from "./lifecycle-stage.ts";
import { requireFeatureInProject } from "./require-feature-in-project.ts";

/**
 * POST .../lifecycle/complete `{status: kept|discarded, statusValue?}`: the flag has done its job.
 * Completing it again keeps when it was completed and takes the new status, so that the stored
 * stage says what the latest `feature-completed` event says (docs/flag-lifecycle.md#lifecycle-and-last-seen).
 */
export async function completeFeature(
  db: Kysely<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
  input: unknown,
): Promise<void> {
  const completed = parseInput(completedInputSchema, input, "", "The completion");
  await inTransaction(db, async (trx) => {
    await requireFeatureInProject(trx, path);
    const status = { status: completed.status, status_value: completed.statusValue ?? null };
    await trx
      .insertInto("feature_lifecycles")
      .values({ feature_name: path.featureName, stage: "completed", ...status })
      .onConflict((oc) => oc.columns(["feature_name", "stage"]).doUpdateSet(status))
      .execute();
    await appendEvent(trx, by, {
      type: "feature-completed",
      project: path.projectId,
      featureName: path.featureName,
      data: { ...completed, kept: completed.status === "kept" },
    });
  });
}

/** POST .../lifecycle/uncomplete: the flag is back in the stage it was in before; Unleash logs it even when it was not completed. */
export async function uncompleteFeature(
  db: Kysely<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await requireFeatureInProject(trx, path);
    await trx.deleteFrom("feature_lifecycles").where("feature_name", "=", path.featureName).where("stage", "=", "completed").execute();
    await appendEvent(trx, by, { type: "feature-uncompleted", project: path.projectId, featureName: path.featureName, data: null });
  });
}
