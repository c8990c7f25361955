import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NotFoundError, ValidationError } from "../errors/domain-error.ts";
import { appendEvents } from "../events/append-event.ts";
import { type Feature, featureFromRow } from "../features/feature.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { refuseOrphans } from "./archive-rules.ts";
import { lockFeaturesOfProject, nameIn } from "./locked-features.ts";

/**
 * DELETE /api/admin/archive/{featureName}: deletes an archived flag for good. A flag that is not
 * there is a 404 and one that is not archived a 400 (Unleash answers 200 to both and does
 * nothing): only the archive can be emptied, and the caller learns that nothing was.
 */
export async function deleteArchivedFeature(db: Kysely<Database>, by: Principal | null, featureName: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("features")
      .select(["name", "archived_at"])
      .where("name", "=", featureName)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`The feature "${featureName}" does not exist.`);
    if (!row.archived_at) {
      const message = `"${featureName}" is not archived: only an archived flag is deleted for good`;
      throw new ValidationError(`${message}.`, [{ path: "featureName", message }]);
    }
    await deleteLocked(trx, by, [row.name]);
  });
}

/**
 * POST /api/admin/projects/{projectId}/delete: deletes archived flags of the project for good, in
 * one transaction; names not stored or not archived are left alone, as in Unleash.
 */
export async function deleteArchivedFeatures(
  db: Kysely<Database>,
  by: Principal | null,
  projectId: string,
  featureNames: readonly string[],
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const features = await lockFeaturesOfProject(trx, projectId, featureNames, "update");
    await deleteLocked(
      trx,
      by,
      features.filter((f) => f.archivedAt !== null).map((f) => f.name),
    );
  });
}

/**
 * Deletes archived flags with everything they hold (strategies, variants, dependencies, tags,
 * lifecycle); the event log keeps their history, and each one's `feature-deleted` event keeps
 * the flag and its tags as they were. A parent goes only with the (archived) children that
 * depend on it, whose dependency would otherwise vanish with it.
 */
async function deleteLocked(trx: Transaction<Database>, by: Principal | null, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await refuseOrphans(trx, names, "any");
  const tags = await trx
    .selectFrom("feature_tags")
    .select(["feature_name", "tag_type", "tag_value"])
    .where(nameIn("feature_name", names))
    .orderBy("feature_name")
    .orderBy("tag_type")
    .orderBy("tag_value")
    .execute();
  const deleted = await trx.deleteFrom("features").where(nameIn("name", names)).returningAll().execute();
  const tagsOf = new Map<string, { type: string; value: string }[]>();
  for (const t of tags) tagsOf.set(t.feature_name, [...(tagsOf.get(t.feature_name) ?? []), { type: t.tag_type, value: t.tag_value }]);
  const features: Feature[] = deleted.map(featureFromRow).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  await appendEvents(
    trx,
    by,
    features.map((feature) => ({
      type: "feature-deleted",
      project: feature.project,
      featureName: feature.name,
      data: null,
      preData: { ...feature, tags: tagsOf.get(feature.name) ?? [] },
    })),
  );
}
