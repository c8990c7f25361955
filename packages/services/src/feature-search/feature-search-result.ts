import type { Database } from "@vexil/db";
import { type Kysely, type Selectable, sql } from "kysely";
import { jsonArrayFrom, jsonObjectFrom } from "kysely/helpers/postgres";
import { imageUrlFor } from "../users/user.ts";
import { creatorId, STAGE_ORDER } from "./feature-search-filters.ts";

/** A feature's environment in a search result, as Unleash's featureSearchEnvironmentSchema has it. */
interface FeatureSearchEnvironment {
  name: string;
  type: string;
  enabled: boolean;
  sortOrder: number;
  variantCount: number;
  lastSeenAt: Date | null;
  hasStrategies: boolean;
  hasEnabledStrategies: boolean;
  /** SDK counts of the last hour. */
  yes: number;
  no: number;
  /** Open change requests (not Applied, Cancelled or Rejected) that change the feature there. */
  changeRequestIds: number[];
}

/** One feature found, as Unleash's featureSearchResponseSchema has it (docs/search.md#response). */
export interface FeatureSearchResult {
  name: string;
  description: string | null;
  type: string;
  project: string;
  stale: boolean;
  favorite: boolean;
  impressionData: boolean;
  createdAt: Date;
  archivedAt: Date | null;
  lastSeenAt: Date | null;
  createdBy: { id: number; name: string; imageUrl: string };
  dependencyType: "parent" | "child" | null;
  environments: FeatureSearchEnvironment[];
  segments: string[];
  /** `color` is the tag type's, as on a feature's tags. */
  tags: { type: string; value: string; color: string | null }[];
  lifecycle?: { stage: string; status?: string; enteredStageAt: Date };
}

type FeatureRow = Selectable<Database["features"]>;

/** JSON built by Postgres carries timestamps as text. */
const dateOf = (value: string | Date | null): Date | null => (value === null ? null : new Date(value));

/**
 * What a page of features shows besides the feature's own columns, read in two statements over
 * the page's names (never over the table): their environments, and the rest.
 */
export async function searchResultsFor(db: Kysely<Database>, rows: FeatureRow[]): Promise<FeatureSearchResult[]> {
  if (rows.length === 0) return [];
  const statements = featureSearchResultStatements(
    db,
    rows.map((r) => r.name),
  );
  const [extras, environments] = await Promise.all([statements.extras.execute(), statements.environments.execute()]);
  const extrasByName = new Map(extras.map((e) => [e.name, e]));
  const environmentsByName = new Map<string, FeatureSearchEnvironment[]>();
  for (const e of environments) {
    const list = environmentsByName.get(e.feature_name) ?? [];
    list.push({
      name: e.name,
      type: e.type,
      enabled: e.enabled ?? false,
      sortOrder: e.sort_order,
      variantCount: e.variant_count ?? 0,
      lastSeenAt: e.last_seen_at,
      hasStrategies: e.has_strategies,
      hasEnabledStrategies: e.has_enabled_strategies,
      yes: Number(e.yes),
      no: Number(e.no),
      changeRequestIds: e.change_request_ids.map(Number),
    });
    environmentsByName.set(e.feature_name, list);
  }
  return rows.map((row) => {
    const extra = extrasByName.get(row.name);
    const creator = extra?.creator;
    const creatorName = creator ? (creator.name ?? creator.username ?? creator.email ?? "unknown") : (extra?.created_by ?? "unknown");
    // An archived flag is in `archived` from its archive on, read from the flag as on its lifecycle
    // (docs/flag-model.md#lifecycle-and-last-seen); the stages before stay for the filters.
    const lifecycle = row.archived_at ? { stage: "archived", status: null, entered_at: row.archived_at } : extra?.lifecycle;
    return {
      name: row.name,
      description: row.description,
      type: row.type,
      project: row.project_id,
      stale: row.stale,
      favorite: false,
      impressionData: row.impression_data,
      createdAt: row.created_at,
      archivedAt: row.archived_at,
      lastSeenAt: row.last_seen_at,
      createdBy: {
        id: creator?.id ?? 0,
        name: creatorName,
        imageUrl: imageUrlFor(creator ?? { id: 0, email: null, username: creatorName }),
      },
      dependencyType: extra?.is_child ? "child" : extra?.is_parent ? "parent" : null,
      environments: environmentsByName.get(row.name) ?? [],
      segments: extra?.segments ?? [],
      tags: extra?.tags ?? [],
      ...(lifecycle
        ? {
            lifecycle: {
              stage: lifecycle.stage,
              ...(lifecycle.status ? { status: lifecycle.status } : {}),
              enteredStageAt: dateOf(lifecycle.entered_at) as Date,
            },
          }
        : {}),
    };
  });
}

/** The two statements over a page's names (docs/search.md#indexes); the tests EXPLAIN these very statements. */
export function featureSearchResultStatements(db: Kysely<Database>, names: string[]) {
  return { extras: extrasOf(db, names), environments: environmentsOf(db, names) };
}

/** The page's names as one array parameter (docs/search.md#indexes). */
const pageNames = (names: string[]) => sql<string>`any(${names}::text[])`;

/** Per feature: tags, segments, dependencies, lifecycle stage and creator. */
function extrasOf(db: Kysely<Database>, names: string[]) {
  return db
    .selectFrom("features")
    .where("features.name", "=", pageNames(names))
    .select((eb) => [
      "features.name",
      jsonArrayFrom(
        eb
          .selectFrom("feature_tags as t")
          .innerJoin("tag_types as tt", "tt.name", "t.tag_type")
          .select(["t.tag_type as type", "t.tag_value as value", "tt.color"])
          .whereRef("t.feature_name", "=", "features.name")
          .orderBy("t.tag_type")
          .orderBy("t.tag_value"),
      ).as("tags"),
      eb
        .selectFrom("feature_strategies as fs")
        .innerJoin("feature_strategy_segments as fss", "fss.strategy_id", "fs.id")
        .innerJoin("segments as s", "s.id", "fss.segment_id")
        .whereRef("fs.feature_name", "=", "features.name")
        .select(sql<string[]>`coalesce(json_agg(distinct s.name order by s.name), '[]')`.as("names"))
        .as("segments"),
      eb.exists(eb.selectFrom("feature_dependencies as d").select("d.child").whereRef("d.parent", "=", "features.name")).as("is_parent"),
      eb.exists(eb.selectFrom("feature_dependencies as d").select("d.parent").whereRef("d.child", "=", "features.name")).as("is_child"),
      jsonObjectFrom(
        eb
          .selectFrom("feature_lifecycles as l")
          .select(["l.stage", "l.status", "l.entered_at"])
          .whereRef("l.feature_name", "=", "features.name")
          .orderBy("l.entered_at", "desc")
          .orderBy(sql`array_position(${STAGE_ORDER}, l.stage)`, "desc")
          .limit(1),
      ).as("lifecycle"),
      jsonObjectFrom(eb.selectFrom("users as u").select(["u.id", "u.name", "u.username", "u.email"]).where("u.id", "=", creatorId(eb))).as(
        "creator",
      ),
      eb
        .selectFrom("events as e")
        .select("e.created_by")
        .where("e.type", "=", "feature-created")
        .whereRef("e.feature_name", "=", "features.name")
        .orderBy("e.id", "desc")
        .limit(1)
        .as("created_by"),
    ]);
}

/**
 * Per feature, each environment enabled in its project, in Unleash's order (sort order, then
 * name). Strategies, the last hour's SDK counts and open change requests are each aggregated once
 * over the page's names and joined, rather than asked per row: a correlated sub-select is planned
 * for any name, and over a table where a few flags hold most rows (change requests) that plan
 * reads far more than the page needs (docs/search.md#indexes).
 */
function environmentsOf(db: Kysely<Database>, names: string[]) {
  const closed = ["Applied", "Cancelled", "Rejected"];
  return db
    .with("strategies", (qb) =>
      qb
        .selectFrom("feature_strategies as s")
        .where("s.feature_name", "=", pageNames(names))
        .groupBy(["s.feature_name", "s.environment_name"])
        .select(["s.feature_name", "s.environment_name", sql<boolean>`bool_or(not s.disabled)`.as("any_enabled")]),
    )
    .with("counts", (qb) =>
      qb
        .selectFrom("client_metrics as m")
        .where("m.feature_name", "=", pageNames(names))
        // As Unleash: the hour buckets that began within the last hour. Hours stay in client_metrics
        // for two days before housekeeping rolls them up, so the daily table never holds any of these
        // (docs/sdk-protocols.md#metrics-storage).
        .where("m.hour", ">=", sql<Date>`now() - interval '1 hour'`)
        .groupBy(["m.feature_name", "m.environment"])
        .select(["m.feature_name", "m.environment", sql<string>`sum(m.yes)`.as("yes"), sql<string>`sum(m.no)`.as("no")]),
    )
    .with("open_requests", (qb) =>
      qb
        .selectFrom("change_request_changes as c")
        .innerJoin("change_requests as cr", "cr.id", "c.change_request_id")
        .where("c.feature_name", "=", pageNames(names))
        .where("cr.state", "not in", closed)
        .groupBy(["c.feature_name", "cr.environment_name", "cr.project_id"])
        .select([
          "c.feature_name",
          "cr.environment_name",
          "cr.project_id",
          sql<number[]>`json_agg(distinct cr.id order by cr.id)`.as("ids"),
        ]),
    )
    .selectFrom("features as f")
    .innerJoin("project_environments as pe", "pe.project_id", "f.project_id")
    .innerJoin("environments as e", "e.name", "pe.environment_name")
    .leftJoin("feature_environments as fe", (join) =>
      join.onRef("fe.feature_name", "=", "f.name").onRef("fe.environment_name", "=", "e.name"),
    )
    .leftJoin("strategies as st", (join) => join.onRef("st.feature_name", "=", "f.name").onRef("st.environment_name", "=", "e.name"))
    .leftJoin("counts as n", (join) => join.onRef("n.feature_name", "=", "f.name").onRef("n.environment", "=", "e.name"))
    .leftJoin("open_requests as o", (join) =>
      join.onRef("o.feature_name", "=", "f.name").onRef("o.environment_name", "=", "e.name").onRef("o.project_id", "=", "f.project_id"),
    )
    .where("f.name", "=", pageNames(names))
    .select([
      "f.name as feature_name",
      "e.name",
      "e.type",
      "e.sort_order",
      "fe.enabled",
      "fe.last_seen_at",
      sql<number | null>`jsonb_array_length(fe.variants)`.as("variant_count"),
      sql<boolean>`st.feature_name is not null`.as("has_strategies"),
      sql<boolean>`coalesce(st.any_enabled, false)`.as("has_enabled_strategies"),
      sql<string>`coalesce(n.yes, 0)`.as("yes"),
      sql<string>`coalesce(n.no, 0)`.as("no"),
      sql<number[]>`coalesce(o.ids, '[]')`.as("change_request_ids"),
    ])
    .orderBy("f.name")
    .orderBy("e.sort_order")
    .orderBy("e.name");
}
