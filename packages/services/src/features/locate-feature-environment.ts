import { batchedLookUp, type Database, preparedQuery, textRows } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { projectNotFound } from "../projects/require-project.ts";

/** The path of a feature's environment: `/projects/{projectId}/features/{featureName}/environments/{environment}`. */
export interface FeatureEnvironmentPath {
  projectId: string;
  featureName: string;
  environment: string;
}

// Every GET of variants runs this: five primary-key look-ups for any number of paths, one row per
// path, in order. Look-ups of the same turn share one query (see batchedLookUp).
const locateAll = preparedQuery(
  "vexil_locate_feature_environments",
  (db, p: { projects: string[]; features: string[]; environments: string[] }) =>
    db
      .selectFrom(textRows("p", { project: p.projects, feature: p.features, env: p.environments }))
      .select((eb) => [
        eb.exists(eb.selectFrom("projects").select("projects.id").whereRef("projects.id", "=", "p.project")).as("projectExists"),
        eb.selectFrom("features").select("features.project_id").whereRef("features.name", "=", "p.feature").as("featureProject"),
        eb
          .exists(eb.selectFrom("environments").select("environments.name").whereRef("environments.name", "=", "p.env"))
          .as("environmentExists"),
        eb
          .exists(
            eb
              .selectFrom("project_environments")
              .select("project_environments.project_id")
              .whereRef("project_environments.project_id", "=", "p.project")
              .whereRef("project_environments.environment_name", "=", "p.env"),
          )
          .as("environmentEnabled"),
        eb
          .selectFrom("feature_environments")
          .select("feature_environments.variants")
          .whereRef("feature_environments.feature_name", "=", "p.feature")
          .whereRef("feature_environments.environment_name", "=", "p.env")
          .as("variants"),
      ])
      .orderBy("p.position"),
);

const locate = batchedLookUp((db, paths: readonly FeatureEnvironmentPath[]) =>
  locateAll.execute(db, {
    projects: paths.map((p) => p.projectId),
    features: paths.map((p) => p.featureName),
    environments: paths.map((p) => p.environment),
  }),
);

/**
 * Checks every part of the path with five primary-key look-ups, so its cost does not grow with
 * the number of projects, features or environments, and returns the stored variants (null when
 * this environment's variants were never written). Throws a NotFoundError saying which part is
 * missing, in path order. Inside a transaction it runs at once, on the transaction's connection.
 */
export async function locateFeatureEnvironment(db: Kysely<Database>, path: FeatureEnvironmentPath): Promise<{ variants: unknown }> {
  const { projectId, featureName, environment } = path;
  const found = await locate(db, path);

  if (!found.projectExists) throw projectNotFound(projectId);
  if (found.featureProject !== projectId) {
    throw new NotFoundError(`The feature "${featureName}" does not exist in the project "${projectId}".`);
  }
  if (!found.environmentExists) throw new NotFoundError(`The environment "${environment}" does not exist.`);
  if (!found.environmentEnabled) {
    throw new NotFoundError(`The environment "${environment}" is not enabled in the project "${projectId}".`);
  }
  return { variants: found.variants };
}
