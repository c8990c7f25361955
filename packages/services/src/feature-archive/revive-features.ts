import { restartFeatureLifecycles } from "../feature-lifecycle/record-stages.ts";
import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors/domain-error.ts";
import { appendEvents } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { type LockedFeature, lockFeaturesOfProject, nameIn } from "./locked-features.ts";

/**
 * POST /api/admin/archive/revive/{featureName}: brings one archived flag back (404 when there is
 * none, 400 when it is not archived: reviving a live flag would switch it off everywhere).
 */
export async function reviveFeature(db: Kysely<Database>, by: Principal | null, featureName: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("features")
      .select(["name", "project_id", "archived_at"])
      .where("name", "=", featureName)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`The feature "${featureName}" does not exist.`);
    if (!row.archived_at) {
      const message = `"${featureName}" is not archived`;
      throw new ValidationError(`${message}.`, [{ path: "featureName", message }]);
    }
    await reviveLocked(trx, by, row.project_id, [{ name: row.name, project: row.project_id, archivedAt: row.archived_at }]);
  });
}

/**
 * POST /api/admin/projects/{projectId}/revive: brings archived flags of the project back, in one
 * transaction; names that are not stored or not archived are left alone, as in Unleash.
 */
export async function reviveFeatures(
  db: Kysely<Database>,
  by: Principal | null,
  projectId: string,
  featureNames: readonly string[],
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const features = await lockFeaturesOfProject(trx, projectId, featureNames, "noKeyUpdate");
    await reviveLocked(trx, by, projectId, features);
  });
}

/**
 * Revives locked flags, off in every environment as Unleash does (a flag comes back to no one
 * until someone switches it on), their strategies, variants and dependencies as they were. A
 * child comes back only with its parent live: its parents are share-locked, so that archiving a
 * parent and reviving its child cannot both happen unseen by each other.
 */
async function reviveLocked(trx: Transaction<Database>, by: Principal | null, projectId: string, features: LockedFeature[]): Promise<void> {
  const names = features.filter((f) => f.archivedAt !== null).map((f) => f.name);
  if (names.length === 0) return;
  const archivedParents = await trx
    .selectFrom("feature_dependencies as d")
    .innerJoin("features as p", "p.name", "d.parent")
    .select(["d.child", "d.parent", "p.archived_at"])
    .where(nameIn("d.child", names))
    .where((eb) => eb.not(nameIn("d.parent", names)))
    .orderBy("d.parent")
    .forShare("p")
    .execute();
  const blocked = archivedParents.filter((d) => d.archived_at !== null);
  if (blocked.length > 0) {
    const which = blocked.map((d) => `"${d.child}" depends on the archived "${d.parent}"`).join(", ");
    throw new ConflictError(`A feature cannot be revived without its parent: ${which}; revive the parent first, or together.`);
  }
  await trx.updateTable("features").set({ archived_at: null }).where(nameIn("name", names)).execute();
  await restartFeatureLifecycles(trx, names);
  await trx
    .updateTable("feature_environments")
    .set({ enabled: false })
    .where(nameIn("feature_name", names))
    .where("enabled", "=", true)
    .execute();
  await appendEvents(
    trx,
    by,
    [...names].sort().map((featureName) => ({ type: "feature-revived", project: projectId, featureName, data: null })),
  );
}
