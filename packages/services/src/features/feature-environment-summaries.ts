import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";

/** What a project's feature list shows of a feature in one environment, as Unleash's does. */
export interface FeatureEnvironmentSummary {
  name: string;
  type: string;
  sortOrder: number;
  enabled: boolean;
  variantCount: number;
  /** When an SDK last reported evaluating the feature there. */
  lastSeenAt: Date | null;
  hasStrategies: boolean;
  hasEnabledStrategies: boolean;
}

/**
 * For each feature of a project (`live`: those not archived), its summary in each environment
 * enabled in the project, in sort order.
 */
export async function featureEnvironmentSummaries(
  db: Kysely<Database>,
  projectId: string,
  which: "all" | "live",
): Promise<Map<string, FeatureEnvironmentSummary[]>> {
  const byFeature = new Map<string, FeatureEnvironmentSummary[]>();
  const strategies = (disabled: boolean | undefined) =>
    sql<boolean>`exists (select 1 from feature_strategies s where s.feature_name = f.name and s.environment_name = e.name${
      disabled === undefined ? sql`` : sql` and s.disabled = ${disabled}`
    })`;
  const rows = await db
    .selectFrom("features as f")
    .innerJoin("project_environments as pe", "pe.project_id", "f.project_id")
    .innerJoin("environments as e", "e.name", "pe.environment_name")
    .leftJoin("feature_environments as fe", (join) =>
      join.onRef("fe.feature_name", "=", "f.name").onRef("fe.environment_name", "=", "e.name"),
    )
    .where("f.project_id", "=", projectId)
    .$if(which === "live", (q) => q.where("f.archived_at", "is", null))
    .select([
      "f.name as feature",
      "e.name",
      "e.type",
      "e.sort_order",
      "fe.enabled",
      sql<number>`coalesce(jsonb_array_length(fe.variants), 0)::int`.as("variant_count"),
      "fe.last_seen_at",
      strategies(undefined).as("has_strategies"),
      strategies(false).as("has_enabled_strategies"),
    ])
    .orderBy("f.name")
    .orderBy("e.sort_order")
    .orderBy("e.name")
    .execute();
  for (const row of rows) {
    const environments = byFeature.get(row.feature) ?? [];
    byFeature.set(row.feature, environments);
    environments.push({
      name: row.name,
      type: row.type,
      sortOrder: row.sort_order,
      enabled: row.enabled ?? false,
      variantCount: row.variant_count,
      lastSeenAt: row.last_seen_at,
      hasStrategies: row.has_strategies,
      hasEnabledStrategies: row.has_enabled_strategies,
    });
  }
  return byFeature;
}
