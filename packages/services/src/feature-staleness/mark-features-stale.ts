import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { requireProject } from "../projects/require-project.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

/**
 * Marks features of a project stale, or not stale (`POST /api/admin/projects/:projectId/stale`).
 * Every name must be a feature of the project, or nothing changes (Unleash skips unknown names and
 * refuses another project's with a 403). Each feature whose mark changes gets `feature-stale-on`
 * or `feature-stale-off`; one already so gets no event.
 */
export async function markFeaturesStale(
  db: Kysely<Database>,
  by: Principal | null,
  projectId: string,
  request: { features: string[]; stale: boolean },
): Promise<void> {
  return inTransaction(db, async (trx) => {
    await requireProject(trx, projectId);
    const names = [...new Set(request.features)].sort();
    if (names.length === 0) return;
    // Locked in name order, so that two batches over the same features queue instead of deadlocking.
    const rows = await trx
      .selectFrom("features")
      .select(["name", "stale"])
      .where("project_id", "=", projectId)
      .where("name", "in", names)
      .orderBy("name")
      .forNoKeyUpdate()
      .execute();
    const found = new Set(rows.map((r) => r.name));
    const missing = names.filter((name) => !found.has(name));
    if (missing.length) {
      const list = missing.map((name) => `"${name}"`).join(", ");
      throw new NotFoundError(`The project "${projectId}" has no feature named ${list}; no feature was changed.`);
    }
    const changing = rows.filter((r) => r.stale !== request.stale).map((r) => r.name);
    if (changing.length === 0) return;
    await trx.updateTable("features").set({ stale: request.stale }).where("name", "in", changing).execute();
    for (const featureName of changing) {
      await appendEvent(trx, by, {
        type: request.stale ? "feature-stale-on" : "feature-stale-off",
        project: projectId,
        featureName,
        data: null,
      });
    }
  });
}
