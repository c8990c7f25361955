import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { type FeatureEnvironmentPath, locateFeatureEnvironment } from "../features/locate-feature-environment.ts";
import { type FeatureStrategy, featureStrategyFromRow } from "./feature-strategy.ts";

/** The strategies of features in environments, by feature, environment and sort order, with their segment ids. */
export async function strategiesOf(
  db: Kysely<Database>,
  featureNames: string[],
  environment?: string,
): Promise<Map<string, FeatureStrategy[]>> {
  const byKey = new Map<string, FeatureStrategy[]>();
  if (featureNames.length === 0) return byKey;
  let query = db.selectFrom("feature_strategies").selectAll().where("feature_name", "in", featureNames);
  if (environment !== undefined) query = query.where("environment_name", "=", environment);
  const rows = await query.orderBy("sort_order").orderBy("created_at").orderBy("id").execute();
  const links = rows.length
    ? await db
        .selectFrom("feature_strategy_segments")
        .selectAll()
        .where(
          "strategy_id",
          "in",
          rows.map((r) => r.id),
        )
        .orderBy("segment_id")
        .execute()
    : [];
  for (const row of rows) {
    const key = `${row.feature_name}\u0000${row.environment_name}`;
    const segments = links.filter((l) => l.strategy_id === row.id).map((l) => l.segment_id);
    byKey.set(key, [...(byKey.get(key) ?? []), featureStrategyFromRow(row, segments)]);
  }
  return byKey;
}

export const strategiesKey = (featureName: string, environment: string) => `${featureName}\u0000${environment}`;

/** GET .../strategies: one environment's strategies of a feature, by sortOrder. */
export async function listFeatureStrategies(db: Kysely<Database>, path: FeatureEnvironmentPath): Promise<FeatureStrategy[]> {
  await locateFeatureEnvironment(db, path);
  return (await strategiesOf(db, [path.featureName], path.environment)).get(strategiesKey(path.featureName, path.environment)) ?? [];
}

/** One strategy of a feature's environment; 404 when the id is not one of them. */
export async function getFeatureStrategy(db: Kysely<Database>, path: FeatureEnvironmentPath, strategyId: string): Promise<FeatureStrategy> {
  const found = (await listFeatureStrategies(db, path)).find((s) => s.id === strategyId);
  if (!found) throw new NotFoundError(`There is no strategy "${strategyId}" for "${path.featureName}" in "${path.environment}".`);
  return found;
}
