import type { Database } from "@vexil/db";
import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type OperandValueExpressionOrList,
  type RawBuilder,
  type SqlBool,
  sql,
} from "kysely";
import { type FeatureSearchQuery, LIFECYCLE_STAGES, type ListFilter, type SetFilter } from "./feature-search-query.ts";

type Query = NonNullable<FeatureSearchQuery>;

/** The common table of the flags the query's terms match. */
export const TERMS = "terms";
type FeaturesEb = ExpressionBuilder<Database, "features">;

/** `%text%` for ILIKE, with LIKE's own wildcards in the text taken literally (docs/search.md#query). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The stages in the order a flag goes through them (constants of the code, never input). */
export const STAGE_ORDER = sql.raw(`array[${LIFECYCLE_STAGES.map((s) => `'${s}'`).join(", ")}]`);

/** The flag's current lifecycle stage: the one entered last (a later stage first, on a tie). */
const latestStage = (eb: FeaturesEb) =>
  eb
    .selectFrom("feature_lifecycles as l")
    .select("l.stage")
    .whereRef("l.feature_name", "=", "features.name")
    .orderBy("l.entered_at", "desc")
    .orderBy(sql`array_position(${STAGE_ORDER}, l.stage)`, "desc")
    .limit(1)
    .$asScalar();

/** Who created the flag: the user of its latest feature-created event (docs/search.md#created-by). */
export const creatorId = (eb: FeaturesEb) =>
  eb
    .selectFrom("events as e")
    .select("e.created_by_user_id")
    .where("e.type", "=", sql.lit("feature-created"))
    .whereRef("e.feature_name", "=", "features.name")
    .orderBy("e.id", "desc")
    .limit(sql.lit(1))
    .$asScalar();

/** A condition that holds for the listed values (IS, IS_ANY_OF) or for none of them (IS_NOT, IS_NONE_OF). */
function listed<T>(eb: FeaturesEb, filter: ListFilter<T>, matches: (values: T[]) => Expression<SqlBool>): Expression<SqlBool> {
  return filter.include ? matches(filter.values) : eb.not(matches(filter.values));
}

/** Flags carrying any, none, all or not all of the values, given the (feature_name) rows that carry each. */
function carried<Carriers extends OperandValueExpressionOrList<Database, "features", "features.name">>(
  eb: FeaturesEb,
  filter: SetFilter<unknown>,
  carriers: (all: boolean) => Carriers,
): Expression<SqlBool> {
  switch (filter.mode) {
    case "any":
      return eb("features.name", "in", carriers(false));
    case "none":
      return eb("features.name", "not in", carriers(false));
    case "all":
      return eb("features.name", "in", carriers(true));
    case "not-all":
      return eb("features.name", "not in", carriers(true));
  }
}

/** Archived flags or live ones, narrowed by lifecycle stage as Unleash does (docs/search.md#archived). */
function archivedAndLifecycle(eb: FeaturesEb, q: Query): Expression<SqlBool>[] {
  const archived = eb("features.archived_at", "is not", null);
  const live = eb("features.archived_at", "is", null);
  const filter = q.lifecycle;
  if (!filter) return [q.archived ? archived : live];
  const stages = filter.values.filter((s) => s !== "archived");
  const withArchived = filter.values.includes("archived");
  const inStages = () => eb(latestStage(eb), "in", stages);
  if (!filter.include) {
    if (q.archived && !withArchived) return [archived];
    // A flag with no stage is in none of them.
    return stages.length ? [live, eb(eb.fn.coalesce(inStages(), sql<boolean>`false`), "=", false)] : [live];
  }
  if (q.archived) return !withArchived && stages.length ? [archived, inStages()] : [archived];
  if (!withArchived) return stages.length ? [live, inStages()] : [live];
  return [stages.length ? eb.or([inStages(), archived]) : archived];
}

/**
 * The flags whose name, description or a tag's value holds one of the terms, from pg_trgm's
 * indexes: a union, not an OR with a sub-select, so that each side is read from its own index. The
 * search reads them first, as the common table TERMS (docs/search.md#indexes).
 */
export function termMatches(db: Kysely<Database>, terms: string[]) {
  const byText = db
    .selectFrom("features as t")
    .select("t.name as feature_name")
    .where((w) => w.or(terms.flatMap((term) => [w("t.name", "ilike", containing(term)), w("t.description", "ilike", containing(term))])));
  const byTag = db
    .selectFrom("feature_tags as ft")
    .select("ft.feature_name")
    .where((w) => w.or(terms.map((term) => w("ft.tag_value", "ilike", containing(term)))));
  return byText.union(byTag);
}

/** A tag as its flags' `tag_keys` hold it (docs/search.md#tag-keys). */
const tagKey = (t: { type: string; value: string }) => `${t.type}:${t.value}`;

/** The flags that a tag filter keeps, by their `tag_keys` (GIN-indexed): carrying any of its tags, none, all, or not all (docs/search.md#tag-keys). */
function tagCondition(filter: SetFilter<unknown>): RawBuilder<SqlBool> {
  const keys = sql`${(filter.values as { type: string; value: string }[]).map(tagKey)}::text[]`;
  switch (filter.mode) {
    case "any":
      return sql<SqlBool>`features.tag_keys && ${keys}`;
    case "none":
      return sql<SqlBool>`not (features.tag_keys && ${keys})`;
    case "all":
      return sql<SqlBool>`features.tag_keys @> ${keys}`;
    case "not-all":
      return sql<SqlBool>`not (features.tag_keys @> ${keys})`;
  }
}

/** Every condition of the search's query and filters, to be ANDed. */
export function featureSearchConditions(eb: FeaturesEb, q: Query): Expression<SqlBool>[] {
  const conditions = archivedAndLifecycle(eb, q);
  // As an array, which the planner takes for a few names and looks up by primary key: as a
  // semi-join it expects as many as the patterns might match, often far more, and reads the table.
  if (q.query?.length) conditions.push(sql<SqlBool>`features.name = any(array(select feature_name from ${sql.table(TERMS)}))`);
  if (q.project) conditions.push(listed(eb, q.project, (v) => eb("features.project_id", "in", v)));
  if (q.type) conditions.push(listed(eb, q.type, (v) => eb("features.type", "in", v)));
  if (q.state) {
    const state = q.state;
    conditions.push(
      listed(eb, state, (values) =>
        eb.or(
          values.map((v) => {
            if (v === "stale") return eb("features.stale", "=", true);
            if (v === "active") return eb("features.stale", "=", false);
            return eb.and([eb("features.stale", "=", false), eb("features.potentially_stale", "=", true)]);
          }),
        ),
      ),
    );
  }
  if (q.createdBy) {
    const ids = q.createdBy.values;
    // A flag whose creator is unknown was created by none of them.
    const by = eb.fn.coalesce(eb(creatorId(eb), "in", ids), sql<boolean>`false`);
    conditions.push(q.createdBy.include ? eb(by, "=", true) : eb(by, "=", false));
  }
  if (q.tag) conditions.push(tagCondition(q.tag));
  if (q.segment) {
    const names = q.segment.values as string[];
    conditions.push(
      carried(eb, q.segment, (all) => {
        const rows = eb
          .selectFrom("feature_strategies as fs")
          .innerJoin("feature_strategy_segments as fss", "fss.strategy_id", "fs.id")
          .innerJoin("segments as s", "s.id", "fss.segment_id")
          .select("fs.feature_name")
          .where("s.name", "in", names);
        return all ? rows.groupBy("fs.feature_name").having(sql`count(distinct s.name)`, "=", names.length) : rows;
      }),
    );
  }
  if (q.status?.length) conditions.push(eb.or(q.status.map((s) => environmentStatus(eb, s.environment, s.enabled))));
  if (q.createdAt) conditions.push(eb("features.created_at", q.createdAt.before ? "<" : ">=", q.createdAt.day));
  if (q.lastSeenAt) conditions.push(eb("features.last_seen_at", q.lastSeenAt.before ? "<" : ">=", q.lastSeenAt.day));
  // Nobody has favourites: only a filter that accepts non-favourites keeps any flag.
  if (q.favorite && !q.favorite.includes(false)) conditions.push(sql<SqlBool>`false`);
  return conditions;
}

/** Whether the environment is enabled in the flag's project. */
const environmentInProject = (eb: FeaturesEb, environment: string) =>
  eb.exists(
    eb
      .selectFrom("project_environments as pe")
      .select("pe.environment_name")
      .whereRef("pe.project_id", "=", "features.project_id")
      .where("pe.environment_name", "=", environment),
  );

/** Whether the flag is on in the environment (a missing row is off). */
const enabledIn = (eb: FeaturesEb, environment: string) =>
  eb.exists(
    eb
      .selectFrom("feature_environments as fe")
      .select("fe.feature_name")
      .whereRef("fe.feature_name", "=", "features.name")
      .where("fe.environment_name", "=", environment)
      .where("fe.enabled", "=", true),
  );

/** On, or off, in an environment of the flag's project (docs/search.md#status). */
function environmentStatus(eb: FeaturesEb, environment: string, enabled: boolean): Expression<SqlBool> {
  return eb.and([environmentInProject(eb, environment), enabled ? enabledIn(eb, environment) : eb.not(enabledIn(eb, environment))]);
}

/**
 * The ORDER BY of a search, as Unleash ranks it: the field in the order asked, then the oldest
 * first and by name, so that paging is stable (docs/search.md#sorting).
 */
export function featureSearchOrder(q: Query): RawBuilder<unknown>[] {
  const dir = sql.raw(q.sortOrder === "desc" ? "desc" : "asc");
  const tieBreak = [sql`features.created_at asc`, sql`features.name asc`];
  const sort = q.sortBy ?? { field: "createdAt" };
  switch (sort.field) {
    case "createdAt":
      return [sql`features.created_at ${dir}`, sql`features.name asc`];
    case "name":
      return [sql`features.name ${dir}`];
    case "type":
      return [sql`features.type ${dir}`, ...tieBreak];
    case "stale":
      return [sql`features.stale ${dir}`, ...tieBreak];
    case "project":
      return [sql`features.project_id ${dir}`, ...tieBreak];
    case "lastSeenAt":
      return [sql`features.last_seen_at ${dir} nulls last`, ...tieBreak];
    case "environment":
      // On or off where the project has the environment (joined as sort_fe and sort_pe); last where it does not.
      return [sql`case when sort_pe.project_id is not null then coalesce(sort_fe.enabled, false) end ${dir} nulls last`, ...tieBreak];
  }
}
