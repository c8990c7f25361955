import type { Database } from "@vexil/db";
import { type Kysely, sql, type Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { directFeatureWrite } from "../change-requests/direct-write.ts";
import { appendEvents } from "../events/append-event.ts";
import { refuseFlagsInOpenChangeRequests, refuseOrphans } from "./archive-rules.ts";
import { type LockedFeature, lockFeatureOfProject, lockFeaturesOfProject, nameIn } from "./locked-features.ts";

/**
 * DELETE /api/admin/projects/{projectId}/features/{featureName}: archives one flag of the project
 * (404 otherwise). Archiving takes it away from every SDK, so where change requests are on it
 * is a direct write like any other (docs/change-requests.md#four-eyes). Archiving an archived flag
 * changes nothing.
 */
export async function archiveFeature(
  db: Kysely<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
): Promise<void> {
  await directFeatureWrite(db, by, path.projectId, async (trx) => {
    const feature = await lockFeatureOfProject(trx, path);
    await archiveLocked(trx, by, path.projectId, [feature]);
  });
}

/**
 * POST /api/admin/projects/{projectId}/archive: archives several flags of the project in one
 * transaction, all or none, in a fixed number of statements whatever their number. Names that are
 * not stored or already archived are left alone, as in Unleash.
 */
export async function archiveFeatures(
  db: Kysely<Database>,
  by: Principal | null,
  projectId: string,
  featureNames: readonly string[],
): Promise<void> {
  await directFeatureWrite(db, by, projectId, async (trx) => {
    const features = await lockFeaturesOfProject(trx, projectId, featureNames, "noKeyUpdate");
    await archiveLocked(trx, by, projectId, features);
  });
}

/**
 * The step an applied `archiveFeature` change calls: archives one flag, as a direct write would
 * after its four-eyes check. The request being applied is no other open request changing it.
 */
export async function storeFeatureArchived(
  trx: Transaction<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
  applying: number,
): Promise<void> {
  const feature = await lockFeatureOfProject(trx, path);
  await archiveLocked(trx, by, path.projectId, [feature], applying);
}

/** Archives locked flags of a project after its rules: no child left live without its parent, no open change request changing them. */
async function archiveLocked(
  trx: Transaction<Database>,
  by: Principal | null,
  projectId: string,
  features: LockedFeature[],
  applying?: number,
): Promise<void> {
  const names = features.filter((f) => f.archivedAt === null).map((f) => f.name);
  if (names.length === 0) return;
  await refuseOrphans(trx, names, "live");
  await refuseFlagsInOpenChangeRequests(trx, projectId, names, applying);
  const archived = await trx
    .updateTable("features")
    .set({ archived_at: sql<Date>`now()` })
    .where(nameIn("name", names))
    .returning("name")
    .execute();
  // One event per flag, in name order (UPDATE ... RETURNING has none of its own).
  const events = archived.map((f) => f.name).sort();
  await appendEvents(
    trx,
    by,
    events.map((featureName) => ({ type: "feature-archived", project: projectId, featureName, data: null })),
  );
}
