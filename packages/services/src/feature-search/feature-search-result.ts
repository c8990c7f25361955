import { type Database, preparedQuery } from "@vexil/db";
import { type Kysely, sql } from "kysely";
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

/** A page's row: the flag's own columns (but its tag keys, which only the filters read). */
export interface FeatureRow {
  name: string;
  project_id: string;
  description: string | null;
  type: string;
  impression_data: boolean;
  stale: boolean;
  created_at: Date;
  archived_at: Date | null;
  last_seen_at: Date | null;
}

/** What a result shows of a flag beyond its own columns, read over a page's names. */
interface ResultParts {
  createdBy: FeatureSearchResult["createdBy"];
  dependencyType: FeatureSearchResult["dependencyType"];
  environments: FeatureSearchEnvironment[];
  segments: string[];
  tags: FeatureSearchResult["tags"];
  /** The stage stored for it; an archived flag shows `archived` instead, read from its row. */
  stage: { stage: string; status: string | null; entered_at: string | Date } | null;
}

/** The results of a page of flags: what they show besides their own columns is read for those flags only. */
export async function searchResultsFor(db: Kysely<Database>, rows: FeatureRow[]): Promise<FeatureSearchResult[]> {
  if (!rows[0]) return [];
  const parts = await readParts(db, rows);
  return rows.map((row) => resultOf(row, parts.get(row.name) as ResultParts));
}

/** A flag's result, of its row and its parts. */
function resultOf(row: FeatureRow, part: ResultParts): FeatureSearchResult {
  // An archived flag is in `archived` from its archive on, read from the flag as on its lifecycle
  // (docs/flag-lifecycle.md#lifecycle-and-last-seen); the stages before stay for the filters.
  const lifecycle = row.archived_at ? { stage: "archived", status: null, entered_at: row.archived_at } : part.stage;
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
    createdBy: part.createdBy,
    dependencyType: part.dependencyType,
    environments: part.environments,
    segments: part.segments,
    tags: part.tags,
    // JSON built by Postgres carries the stage's time as text.
    ...(lifecycle
      ? {
          lifecycle: {
            stage: lifecycle.stage,
            ...(lifecycle.status ? { status: lifecycle.status } : {}),
            enteredStageAt: new Date(lifecycle.entered_at),
          },
        }
      : {}),
  };
}

/**
 * What the flags show besides their own columns, read in three statements over their names (never
 * over the table): their environments, their open change requests, and the rest. The first two are
 * prepared (docs/search.md#one-query).
 */
async function readParts(db: Kysely<Database>, rows: FeatureRow[]): Promise<Map<string, ResultParts>> {
  const names = rows.map((r) => r.name);
  const [extras, environments, openRequests] = await Promise.all([
    extrasStatement.execute(db, { names }),
    environmentsStatement.execute(db, { names }),
    openRequestsOf(db, names).execute(),
  ]);
  const projectOf = new Map(rows.map((r) => [r.name, r.project_id]));
  // A flag's open change requests in an environment, those of its project only (a request made
  // before the flag moved to another project is not the flag's there).
  const openIds = new Map<string, number[]>();
  for (const o of openRequests)
    if (projectOf.get(o.feature_name) === o.project_id) openIds.set(`${o.feature_name}\n${o.environment_name}`, o.ids.map(Number));
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
      changeRequestIds: openIds.get(`${e.feature_name}\n${e.name}`) ?? [],
    });
    environmentsByName.set(e.feature_name, list);
  }
  // A page's flags mostly share a few creators: each one's avatar address (a digest) is made once.
  const imageUrls = new Map<string, string>();
  const imageUrlOf = (user: { id: number; email: string | null; username: string | null }) => {
    const key = `${user.id}\n${user.email}\n${user.username}`;
    let url = imageUrls.get(key);
    if (url === undefined) imageUrls.set(key, (url = imageUrlFor(user)));
    return url;
  };
  const parts = new Map<string, ResultParts>();
  for (const name of names) {
    const extra = extrasByName.get(name);
    const creator = extra?.creator;
    const creatorName = creator ? (creator.name ?? creator.username ?? creator.email ?? "unknown") : (extra?.created_by ?? "unknown");
    parts.set(name, {
      createdBy: {
        id: creator?.id ?? 0,
        name: creatorName,
        imageUrl: imageUrlOf(creator ?? { id: 0, email: null, username: creatorName }),
      },
      dependencyType: extra?.is_child ? "child" : extra?.is_parent ? "parent" : null,
      environments: environmentsByName.get(name) ?? [],
      segments: extra?.segments ?? [],
      tags: extra?.tags ?? [],
      stage: extra?.lifecycle ?? null,
    });
  }
  return parts;
}

/** The three statements over a page's names (docs/search.md#indexes); the tests EXPLAIN these very statements. */
export function featureSearchResultStatements(db: Kysely<Database>, names: string[]) {
  return { extras: extrasOf(db, names), environments: environmentsOf(db, names), openRequests: openRequestsOf(db, names) };
}

// Their text does not change with the page (the names are one array parameter): each connection
// plans them once its plan cache settles on a generic plan (docs/search.md#one-query).
const extrasStatement = preparedQuery("vexil_feature_search_extras", (db, p: { names: string[] }) => extrasOf(db, p.names));
const environmentsStatement = preparedQuery("vexil_feature_search_environments", (db, p: { names: string[] }) =>
  environmentsOf(db, p.names),
);

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
          .limit(sql.lit(1)),
      ).as("lifecycle"),
      jsonObjectFrom(eb.selectFrom("users as u").select(["u.id", "u.name", "u.username", "u.email"]).where("u.id", "=", creatorId(eb))).as(
        "creator",
      ),
      eb
        .selectFrom("events as e")
        .select("e.created_by")
        .where("e.type", "=", sql.lit("feature-created"))
        .whereRef("e.feature_name", "=", "features.name")
        .orderBy("e.id", "desc")
        .limit(sql.lit(1))
        .as("created_by"),
    ]);
}

/**
 * Per feature, each environment enabled in its project, in Unleash's order (sort order, then
 * name). Strategies and the last hour's SDK counts are each aggregated once over the page's names
 * and joined, rather than asked per row (docs/search.md#indexes); open change requests are read
 * apart, by openRequestsOf.
 */
function environmentsOf(db: Kysely<Database>, names: string[]) {
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
    .selectFrom("features as f")
    .innerJoin("project_environments as pe", "pe.project_id", "f.project_id")
    .innerJoin("environments as e", "e.name", "pe.environment_name")
    .leftJoin("feature_environments as fe", (join) =>
      join.onRef("fe.feature_name", "=", "f.name").onRef("fe.environment_name", "=", "e.name"),
    )
    .leftJoin("strategies as st", (join) => join.onRef("st.feature_name", "=", "f.name").onRef("st.environment_name", "=", "e.name"))
    .leftJoin("counts as n", (join) => join.onRef("n.feature_name", "=", "f.name").onRef("n.environment", "=", "e.name"))
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
    ])
    .orderBy("f.name")
    .orderBy("e.sort_order")
    .orderBy("e.name");
}

/**
 * Per feature and environment, the open change requests (not Applied, Cancelled or Rejected) that
 * change it. Not prepared: a generic plan cannot know that most names hold no change while a few
 * hold thousands, and would read both tables whole (docs/search.md#open-change-requests).
 */
function openRequestsOf(db: Kysely<Database>, names: string[]) {
  return db
    .selectFrom("change_request_changes as c")
    .innerJoin("change_requests as cr", "cr.id", "c.change_request_id")
    .where("c.feature_name", "=", pageNames(names))
    .where("cr.state", "not in", ["Applied", "Cancelled", "Rejected"])
    .groupBy(["c.feature_name", "cr.environment_name", "cr.project_id"])
    .select(["c.feature_name", "cr.environment_name", "cr.project_id", sql<number[]>`json_agg(distinct cr.id order by cr.id)`.as("ids")]);
}
