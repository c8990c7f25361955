import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import type { Principal } from "../auth/principal.ts";
import { directFeatureWrite } from "../change-requests/direct-write.ts";
import { storeFeatureDependency } from "../dependencies/write-feature-dependency.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { createFeature } from "../features/create-feature.ts";
import type { Feature } from "../features/feature.ts";
import { featureWithEnvironments } from "../features/feature-with-environments.ts";
import { storeFeatureEnvironmentVariants } from "../features/replace-feature-environment-variants.ts";
import { assertUrlSafeName, urlSafeName } from "../features/url-safe-name.ts";
import { requireProject } from "../projects/require-project.ts";
import type { FeatureStrategy } from "../strategies/feature-strategy.ts";
import { insertFeatureStrategy } from "../strategies/write-feature-strategy.ts";

/** Unleash's cloneFeatureSchema. */
export const cloneFeatureSchema = z.strictObject({
  name: urlSafeName,
  replaceGroupId: z.boolean().optional(),
});
type CloneFeature = z.output<typeof cloneFeatureSchema>;

/**
 * POST .../features/:featureName/clone: a new feature in the same project with what Unleash
 * copies (docs/flag-model.md#daily-edits): description, type and impressionData, each
 * environment's variants and strategies (constraints, segments, strategy variants, disabled,
 * order) and the dependencies on parents; off everywhere, without tags. It writes strategies into
 * every environment, so it is refused to a caller who may not skip change requests wherever an
 * environment of the project has them on.
 */
export async function cloneFeature(
  db: Kysely<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
  input: CloneFeature,
): Promise<Feature> {
  // A body rule, checked before the path is looked up (docs/errors.md#check-order).
  assertUrlSafeName(input.name, "name");
  return directFeatureWrite(db, by, path.projectId, (trx) => storeClone(trx, by, path, input));
}

/** The strategy as a PUT or POST body, with its group id renamed after the clone when asked (Unleash's default). */
function strategyBody({ id: _, parameters, ...strategy }: FeatureStrategy, cloneName: string, replaceGroupId: boolean) {
  const renamed = replaceGroupId && Object.hasOwn(parameters, "groupId") ? { ...parameters, groupId: cloneName } : parameters;
  return { ...strategy, parameters: renamed };
}

async function storeClone(
  trx: Transaction<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
  input: CloneFeature,
): Promise<Feature> {
  // FOR SHARE: writers of the source (who lock it FOR NO KEY UPDATE) wait until the copy is made, so it is never torn.
  const source = await trx
    .selectFrom("features")
    .select(["project_id", "archived_at"])
    .where("name", "=", path.featureName)
    .forShare()
    .executeTakeFirst();
  // An archived flag is not cloned: as in Unleash, it is not found.
  if (!source || source.project_id !== path.projectId || source.archived_at !== null) {
    await requireProject(trx, path.projectId);
    throw new NotFoundError(`The feature "${path.featureName}" does not exist in the project "${path.projectId}".`);
  }
  const original = await featureWithEnvironments(trx, path);
  const clone = await createFeature(trx, by, path.projectId, {
    name: input.name,
    description: original.description,
    type: original.type,
    impressionData: original.impressionData,
  });
  const clonePath = { projectId: path.projectId, featureName: clone.name };
  for (const environment of original.environments) {
    const envPath = { ...clonePath, environment: environment.name };
    if (environment.variants.length > 0) await storeFeatureEnvironmentVariants(trx, by, envPath, environment.variants);
    for (const strategy of environment.strategies) {
      await insertFeatureStrategy(trx, by, envPath, strategyBody(strategy, clone.name, input.replaceGroupId ?? true));
    }
  }
  for (const dependency of original.dependencies) await storeFeatureDependency(trx, by, clonePath, dependency);
  return clone;
}
