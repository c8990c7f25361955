import { type Database, preparedStatement } from "@vexil/db";
import { CompiledQuery, type Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";

/** The path of a feature's environment: `/projects/{projectId}/features/{featureName}/environments/{environment}`. */
export interface FeatureEnvironmentPath {
  projectId: string;
  featureName: string;
  environment: string;
}

interface Located {
  projectExists: boolean;
  featureProject: string | null;
  environmentExists: boolean;
  environmentEnabled: boolean;
  variants: unknown;
}

// Every GET of variants runs this: building it with the query builder cost more CPU than running
// it (profiled under load), so it is written once as SQL, and prepared once per connection.
// $1 project, $2 feature, $3 environment.
const LOCATE_SQL = preparedStatement(
  "vexil_locate_feature_environment",
  `select
  exists (select 1 from projects where id = $1) as "projectExists",
  (select project_id from features where name = $2) as "featureProject",
  exists (select 1 from environments where name = $3) as "environmentExists",
  exists (select 1 from project_environments where project_id = $1 and environment_name = $3) as "environmentEnabled",
  (select variants from feature_environments where feature_name = $2 and environment_name = $3) as "variants"`,
);

/**
 * Checks every part of the path in one round trip of five primary-key look-ups, so its cost does
 * not grow with the number of projects, features or environments, and returns the stored variants
 * (null when this environment's variants were never written). Throws a NotFoundError saying which
 * part is missing, in path order.
 */
export async function locateFeatureEnvironment(db: Kysely<Database>, path: FeatureEnvironmentPath): Promise<{ variants: unknown }> {
  const { projectId, featureName, environment } = path;
  const found = (await db.executeQuery<Located>(CompiledQuery.raw(LOCATE_SQL, [projectId, featureName, environment]))).rows[0] as Located;

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
