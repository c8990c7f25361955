import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";

/** The path of a feature's environment: `/projects/{projectId}/features/{featureName}/environments/{environment}`. */
export interface FeatureEnvironmentPath {
  projectId: string;
  featureName: string;
  environment: string;
}

/**
 * Checks every part of the path in one round trip of five primary-key look-ups, so its cost does
 * not grow with the number of projects, features or environments, and returns the stored variants
 * (null when this environment's variants were never written). Throws a NotFoundError saying which
 * part is missing, in path order.
 */
export async function locateFeatureEnvironment(db: Kysely<Database>, path: FeatureEnvironmentPath): Promise<{ variants: unknown }> {
  const { projectId, featureName, environment } = path;
  const found = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom("projects").select("id").where("id", "=", projectId)).as("projectExists"),
      eb.selectFrom("features").select("project_id").where("name", "=", featureName).as("featureProject"),
      eb.exists(eb.selectFrom("environments").select("name").where("name", "=", environment)).as("environmentExists"),
      eb
        .exists(
          eb
            .selectFrom("project_environments")
            .select("environment_name")
            .where("project_id", "=", projectId)
            .where("environment_name", "=", environment),
        )
        .as("environmentEnabled"),
      eb
        .selectFrom("feature_environments")
        .select("variants")
        .where("feature_name", "=", featureName)
        .where("environment_name", "=", environment)
        .as("variants"),
    ])
    .executeTakeFirstOrThrow();

  if (!found.projectExists) throw new NotFoundError(`The project "${projectId}" does not exist.`);
  if (found.featureProject !== projectId) {
    throw new NotFoundError(`The feature "${featureName}" does not exist in the project "${projectId}".`);
  }
  if (!found.environmentExists) throw new NotFoundError(`The environment "${environment}" does not exist.`);
  if (!found.environmentEnabled) {
    throw new NotFoundError(`The environment "${environment}" is not enabled in the project "${projectId}".`);
  }
  return { variants: found.variants };
}
