import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { requireProject } from "../projects/require-project.ts";
import { type Feature, featureFromRow } from "./feature.ts";
import { type Variant, variantsFromJson } from "./variant.ts";
import type { FeatureStrategy } from "../strategies/feature-strategy.ts";
import { strategiesKey, strategiesOf } from "../strategies/list-feature-strategies.ts";
import type { FeatureDependency } from "../dependencies/feature-dependency.ts";
import { dependenciesOf } from "../dependencies/write-feature-dependency.ts";

interface FeatureEnvironment {
  name: string;
  type: string;
  sortOrder: number;
  enabled: boolean;
  /** When an SDK last reported evaluating the feature here. */
  lastSeenAt: Date | null;
  variants: Variant[];
  /** By sortOrder, the disabled ones included. */
  strategies: FeatureStrategy[];
}

export interface FeatureWithEnvironments extends Feature {
  /** Every environment enabled in the feature's project, in sort order. */
  environments: FeatureEnvironment[];
  dependencies: FeatureDependency[];
}

/** One feature of a project, with what it holds in each of the project's environments. */
export async function featureWithEnvironments(
  db: Kysely<Database>,
  path: { projectId: string; featureName: string },
): Promise<FeatureWithEnvironments> {
  const row = await db.selectFrom("features").selectAll().where("name", "=", path.featureName).executeTakeFirst();
  if (!row || row.project_id !== path.projectId) {
    await requireProject(db, path.projectId);
    throw new NotFoundError(`The feature "${path.featureName}" does not exist in the project "${path.projectId}".`);
  }
  const environments = await db
    .selectFrom("project_environments as pe")
    .innerJoin("environments as e", "e.name", "pe.environment_name")
    .leftJoin("feature_environments as fe", (join) =>
      join.onRef("fe.environment_name", "=", "pe.environment_name").on("fe.feature_name", "=", path.featureName),
    )
    .where("pe.project_id", "=", path.projectId)
    .select(["e.name", "e.type", "e.sort_order", "fe.enabled", "fe.variants", "fe.last_seen_at"])
    .orderBy("e.sort_order")
    .orderBy("e.name")
    .execute();
  const strategies = await strategiesOf(db, [path.featureName]);
  const dependencies = (await dependenciesOf(db, [path.featureName])).get(path.featureName) ?? [];
  return {
    ...featureFromRow(row),
    dependencies,
    environments: environments.map((e) => ({
      name: e.name,
      type: e.type,
      sortOrder: e.sort_order,
      enabled: e.enabled ?? false,
      lastSeenAt: e.last_seen_at,
      variants: variantsFromJson(e.variants),
      strategies: strategies.get(strategiesKey(path.featureName, e.name)) ?? [],
    })),
  };
}
