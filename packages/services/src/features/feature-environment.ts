import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { FeatureStrategy } from "../strategies/feature-strategy.ts";
import { strategiesKey, strategiesOf } from "../strategies/list-feature-strategies.ts";
import { type FeatureEnvironmentPath, locateFeatureEnvironment } from "./locate-feature-environment.ts";
import { type Variant, variantsFromJson } from "./variant.ts";

/** One feature in one environment, as Unleash's featureEnvironmentSchema shows it. */
interface FeatureEnvironmentView {
  /** The feature's name, as Unleash puts it. */
  name: string;
  environment: string;
  type: string;
  sortOrder: number;
  enabled: boolean;
  /** When an SDK last reported evaluating it here. */
  lastSeenAt: Date | null;
  variants: Variant[];
  /** By sortOrder, the disabled ones included; each names its feature, as in Unleash. */
  strategies: (FeatureStrategy & { featureName: string })[];
}

/** GET .../features/:featureName/environments/:environment: 404 as the variants GET says it. */
export async function getFeatureEnvironment(db: Kysely<Database>, path: FeatureEnvironmentPath): Promise<FeatureEnvironmentView> {
  await locateFeatureEnvironment(db, path);
  const row = await db
    .selectFrom("environments as e")
    .leftJoin("feature_environments as fe", (join) =>
      join.onRef("fe.environment_name", "=", "e.name").on("fe.feature_name", "=", path.featureName),
    )
    .select(["e.type", "e.sort_order", "fe.enabled", "fe.variants", "fe.last_seen_at"])
    .where("e.name", "=", path.environment)
    .executeTakeFirstOrThrow();
  const strategies = (await strategiesOf(db, [path.featureName], path.environment)).get(strategiesKey(path.featureName, path.environment));
  return {
    name: path.featureName,
    environment: path.environment,
    type: row.type,
    sortOrder: row.sort_order,
    enabled: row.enabled ?? false,
    lastSeenAt: row.last_seen_at ?? null,
    variants: variantsFromJson(row.variants),
    strategies: (strategies ?? []).map((strategy) => ({ ...strategy, featureName: path.featureName })),
  };
}
