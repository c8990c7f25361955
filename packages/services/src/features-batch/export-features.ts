import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { dependenciesOf } from "../dependencies/write-feature-dependency.ts";
import { variantsFromJson } from "../features/variant.ts";
import { strategiesKey, strategiesOf } from "../strategies/list-feature-strategies.ts";
import { type FeaturesBatchExport, featuresBatchExportQuerySchema } from "./features-batch-document.ts";

/** The live flags a query selects, by name: listed ones, those carrying a tag (`type:value`), or a project's. */
async function selectedFeatures(db: Kysely<Database>, query: ReturnType<typeof featuresBatchExportQuerySchema.parse>) {
  let select = db.selectFrom("features").selectAll().where("archived_at", "is", null);
  if (query.tag !== undefined) {
    const [type, ...rest] = query.tag.split(":");
    const value = rest.length ? rest.join(":") : "";
    select = select.where("name", "in", (eb) =>
      eb
        .selectFrom("feature_tags")
        .select("feature_name")
        .where("tag_type", "=", type ?? "")
        .where("tag_value", "=", value),
    );
  } else if (query.features?.length) {
    select = select.where("name", "in", query.features);
  } else if (query.project !== undefined) {
    select = select.where("project_id", "=", query.project);
  }
  return select.orderBy("name").execute();
}

/**
 * POST /api/admin/features-batch/export: the flags a query selects with what they hold in one
 * environment, in Unleash's document, which /import takes back. Archived flags are left out; an
 * unknown environment is a 404.
 */
export async function exportFeatures(db: Kysely<Database>, input: unknown): Promise<FeaturesBatchExport> {
  const query = parseInput(featuresBatchExportQuerySchema, input, "", "The export query");
  const environment = await db.selectFrom("environments").select("name").where("name", "=", query.environment).executeTakeFirst();
  if (!environment) throw new NotFoundError(`The environment "${query.environment}" does not exist.`);
  const rows = await selectedFeatures(db, query);
  const names = rows.map((r) => r.name);
  if (names.length === 0) {
    return {
      features: [],
      featureStrategies: [],
      featureEnvironments: [],
      contextFields: [],
      featureTags: [],
      segments: [],
      tagTypes: [],
      dependencies: [],
    };
  }
  const strategies = await strategiesOf(db, names, query.environment);
  const featureEnvironments = await db
    .selectFrom("feature_environments as fe")
    .innerJoin("features as f", "f.name", "fe.feature_name")
    .innerJoin("project_environments as pe", (join) =>
      join.onRef("pe.project_id", "=", "f.project_id").onRef("pe.environment_name", "=", "fe.environment_name"),
    )
    .select(["fe.feature_name", "fe.enabled", "fe.variants"])
    .where("fe.feature_name", "in", names)
    .where("fe.environment_name", "=", query.environment)
    .orderBy("fe.feature_name")
    .execute();
  const featureTags = await db
    .selectFrom("feature_tags")
    .select(["feature_name", "tag_type", "tag_value"])
    .where("feature_name", "in", names)
    .orderBy("feature_name")
    .orderBy("tag_type")
    .orderBy("tag_value")
    .execute();
  const dependencies = await dependenciesOf(db, names);

  const featureStrategies = names.flatMap((featureName) =>
    (strategies.get(strategiesKey(featureName, query.environment)) ?? []).map((s) => ({
      name: s.name,
      id: s.id,
      featureName,
      title: s.title,
      disabled: s.disabled,
      sortOrder: s.sortOrder,
      constraints: s.constraints,
      parameters: s.parameters,
      variants: s.variants,
      segments: s.segments,
    })),
  );
  const segmentIds = [...new Set(featureStrategies.flatMap((s) => s.segments))];
  const segments = segmentIds.length
    ? await db.selectFrom("segments").select(["id", "name"]).where("id", "in", segmentIds).orderBy("id").execute()
    : [];
  const tagTypeNames = [...new Set(featureTags.map((t) => t.tag_type))];
  const tagTypes = tagTypeNames.length
    ? await db
        .selectFrom("tag_types")
        .select(["name", "description", "icon", "color"])
        .where("name", "in", tagTypeNames)
        .orderBy("name")
        .execute()
    : [];

  return {
    features: rows.map((r) => ({
      name: r.name,
      description: r.description,
      type: r.type,
      project: r.project_id,
      stale: r.stale,
      impressionData: r.impression_data,
      archived: false,
    })),
    featureStrategies,
    featureEnvironments: featureEnvironments.map((fe) => ({
      name: fe.feature_name,
      featureName: fe.feature_name,
      environment: query.environment,
      enabled: fe.enabled,
      variants: variantsFromJson(fe.variants),
    })),
    // Vexil keeps no context-field registry (docs/migrate-from-unleash.md#what-is-not-copied).
    contextFields: [],
    featureTags: featureTags.map((t) => ({ featureName: t.feature_name, tagType: t.tag_type, tagValue: t.tag_value })),
    segments,
    tagTypes,
    dependencies: [...dependencies].map(([feature, parents]) => ({ feature, dependencies: parents })),
  };
}
