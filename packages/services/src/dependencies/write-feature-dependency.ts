import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { directFeatureWrite } from "../change-requests/direct-write.ts";
import { NotFoundError, ValidationError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { appendEvent } from "../events/append-event.ts";
import { archivedFeatureError, lockLiveFeature } from "../feature-archive/lock-live-feature.ts";
import { dependencyInputSchema, type FeatureDependency } from "./feature-dependency.ts";

async function requireFeatureIn(trx: Transaction<Database>, projectId: string, featureName: string): Promise<void> {
  const row = await trx.selectFrom("features").select("project_id").where("name", "=", featureName).executeTakeFirst();
  if (!row || row.project_id !== projectId)
    throw new NotFoundError(`The feature "${featureName}" does not exist in the project "${projectId}".`);
}

const refuse = (message: string): never => {
  throw new ValidationError(`${message}.`, [{ path: "feature", message }]);
};

/** POST .../dependencies: makes a feature depend on a parent, directly (the four-eyes rule applies to the whole project). */
export async function addFeatureDependency(
  db: Kysely<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
  input: unknown,
): Promise<FeatureDependency> {
  return directFeatureWrite(db, by, path.projectId, (trx) => storeFeatureDependency(trx, by, path, input));
}

/** DELETE .../dependencies/:parent, directly (the four-eyes rule applies to the whole project). */
export async function deleteFeatureDependency(
  db: Kysely<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
  parent: string,
): Promise<void> {
  await directFeatureWrite(db, by, path.projectId, (trx) => removeFeatureDependency(trx, by, path, parent));
}

/**
 * Stores a dependency on a parent of the same project, one level deep, so no cycle can form: a
 * parent has no parents, and a child is nobody's parent. Storing it again replaces it.
 */
export async function storeFeatureDependency(
  trx: Transaction<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
  input: unknown,
): Promise<FeatureDependency> {
  const dependency = parseInput(dependencyInputSchema, input, "", "The dependency");
  await requireFeatureIn(trx, path.projectId, path.featureName);
  const child = path.featureName;
  const parent = dependency.feature;
  if (parent === child) refuse("a feature cannot depend on itself");
  const parentRow = await trx.selectFrom("features").select("project_id").where("name", "=", parent).executeTakeFirst();
  if (!parentRow) refuse(`there is no feature "${parent}"`);
  if (parentRow?.project_id !== path.projectId) refuse(`the parent "${parent}" is not in the project "${path.projectId}"`);
  // Both features queue here, so two requests cannot each make one half of a cycle, nor depend on a flag being archived.
  const locked = await trx
    .selectFrom("features")
    .select(["name", "archived_at"])
    .where("name", "in", [child, parent])
    .orderBy("name")
    .forNoKeyUpdate()
    .execute();
  if (locked.find((f) => f.name === child)?.archived_at) throw archivedFeatureError(child);
  if (locked.find((f) => f.name === parent)?.archived_at) refuse(`the parent "${parent}" is archived`);
  const parentHasParents = await trx.selectFrom("feature_dependencies").select("parent").where("child", "=", parent).executeTakeFirst();
  if (parentHasParents) refuse(`"${parent}" depends on "${parentHasParents.parent}" itself: dependencies are one level deep`);
  const childIsParent = await trx.selectFrom("feature_dependencies").select("child").where("parent", "=", child).executeTakeFirst();
  if (childIsParent) refuse(`"${child}" is the parent of "${childIsParent.child}": dependencies are one level deep`);

  const stored = { child, parent, enabled: dependency.enabled, variants: JSON.stringify(dependency.variants) };
  await trx
    .insertInto("feature_dependencies")
    .values(stored)
    .onConflict((oc) => oc.columns(["child", "parent"]).doUpdateSet({ enabled: stored.enabled, variants: stored.variants }))
    .execute();
  const result: FeatureDependency = { feature: parent, enabled: dependency.enabled, variants: dependency.variants };
  await appendEvent(trx, by, { type: "feature-dependency-added", project: path.projectId, featureName: child, data: result });
  return result;
}

/** Removes a stored dependency. */
export async function removeFeatureDependency(
  trx: Transaction<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
  parent: string,
): Promise<void> {
  await requireFeatureIn(trx, path.projectId, path.featureName);
  await lockLiveFeature(trx, path.featureName);
  const deleted = await trx
    .deleteFrom("feature_dependencies")
    .where("child", "=", path.featureName)
    .where("parent", "=", parent)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new NotFoundError(`"${path.featureName}" does not depend on "${parent}".`);
  await appendEvent(trx, by, {
    type: "feature-dependency-removed",
    project: path.projectId,
    featureName: path.featureName,
    data: null,
    preData: { feature: parent },
  });
}

/** The parents of features, by child name. */
export async function dependenciesOf(db: Kysely<Database>, featureNames: string[]): Promise<Map<string, FeatureDependency[]>> {
  const byChild = new Map<string, FeatureDependency[]>();
  if (featureNames.length === 0) return byChild;
  const rows = await db
    .selectFrom("feature_dependencies")
    .selectAll()
    .where("child", "in", featureNames)
    .orderBy("child")
    .orderBy("parent")
    .execute();
  for (const row of rows) {
    const dependency = {
      feature: row.parent,
      enabled: row.enabled,
      variants: Array.isArray(row.variants) ? (row.variants as string[]) : [],
    };
    byChild.set(row.child, [...(byChild.get(row.child) ?? []), dependency]);
  }
  return byChild;
}
