import { type Database, preparedStatement } from "@vexil/db";
import DataLoader from "dataloader";
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
// it (profiled under load), so it is written once as SQL, and prepared once per connection. It
// takes many paths at once: $1 projects, $2 features, $3 environments, one row per path, in order.
const LOCATE_SQL = preparedStatement(
  "vexil_locate_feature_environments",
  `select
  exists (select 1 from projects where id = p.project) as "projectExists",
  (select project_id from features where name = p.feature) as "featureProject",
  exists (select 1 from environments where name = p.env) as "environmentExists",
  exists (select 1 from project_environments where project_id = p.project and environment_name = p.env) as "environmentEnabled",
  (select variants from feature_environments where feature_name = p.feature and environment_name = p.env) as "variants"
from unnest($1::text[], $2::text[], $3::text[]) with ordinality as p(project, feature, env, position)
order by p.position`,
);

async function locateAll(db: Kysely<Database>, paths: readonly FeatureEnvironmentPath[]): Promise<Located[]> {
  const parameters = [paths.map((p) => p.projectId), paths.map((p) => p.featureName), paths.map((p) => p.environment)];
  return (await db.executeQuery<Located>(CompiledQuery.raw(LOCATE_SQL, parameters))).rows;
}

// Under load, the round trip to Postgres cost the event loop more than anything else a GET does
// (a quarter of it, in the write that wakes the backend). Look-ups that arrive in the same turn
// of the event loop therefore share one query: this doubled GET variants' throughput at 50
// connections (issue 8). Each query still reads committed data only after every request in it
// arrived, so no request sees less than it would alone. Nothing is cached between turns. A query
// that fails fails every request in it: the database being down fails them all anyway, and no
// path can break the query (text the database cannot store is refused before it gets here).
const MAX_BATCH = 100;
const loaders = new WeakMap<Kysely<Database>, DataLoader<FeatureEnvironmentPath, Located>>();

function loaderFor(db: Kysely<Database>): DataLoader<FeatureEnvironmentPath, Located> {
  let loader = loaders.get(db);
  if (!loader) {
    loader = new DataLoader((paths) => locateAll(db, paths), { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => setImmediate(run) });
    loaders.set(db, loader);
  }
  return loader;
}

/**
 * Checks every part of the path with five primary-key look-ups, so its cost does not grow with
 * the number of projects, features or environments, and returns the stored variants (null when
 * this environment's variants were never written). Throws a NotFoundError saying which part is
 * missing, in path order. Inside a transaction it runs at once, on the transaction's connection.
 */
export async function locateFeatureEnvironment(db: Kysely<Database>, path: FeatureEnvironmentPath): Promise<{ variants: unknown }> {
  const { projectId, featureName, environment } = path;
  const found = db.isTransaction ? ((await locateAll(db, [path]))[0] as Located) : await loaderFor(db).load(path);

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
