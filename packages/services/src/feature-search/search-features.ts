import { type Database, executePrepared } from "@vexil/db";
import { type Kysely, type QueryCreator, sql } from "kysely";
import {
  featureSearchConditions,
  featureSearchOrder,
  LISTED_CARRIERS,
  type TermMatches,
  tagCarriers,
  termMatches,
} from "./feature-search-filters.ts";
import { type FeatureSearchQuery, SEARCH_LIMIT_DEFAULT } from "./feature-search-query.ts";
import { rarePart, trigramCounts } from "./rare-part.ts";
import { type FeatureSearchResult, searchResultsFor } from "./feature-search-result.ts";

/** Most names a query's terms, or a tag filter, may match and still be listed in the statements (docs/search.md#indexes). */
const LISTED_MATCHES = 1000;

/** A flag's columns, named (a prepared statement's `select *` breaks when a migration adds one). */
const FEATURE_COLUMNS = [
  "features.name",
  "features.project_id",
  "features.description",
  "features.type",
  "features.created_at",
  "features.impression_data",
  "features.archived_at",
  "features.stale",
  "features.potentially_stale",
  "features.last_seen_at",
] as const;

/**
 * The statements over the whole table that a search runs: its page of flags, in the order asked,
 * and how many match in all. Each is answered from indexes (docs/search.md#indexes); the tests
 * EXPLAIN these very statements. Terms are looked up first, here. When the flags that can match are
 * listed (`bounded`: the terms' at most LISTED_MATCHES matches, or a tag filter's first carriers,
 * read by the page itself), the page counts them too and the total is run only when it answers no
 * row (docs/search.md#one-statement-when-listed). A page that reads the carriers answers no row when
 * there are more than LISTED_MATCHES: `openPage` is then the page (docs/search.md#carriers-in-the-page).
 * The total and the open page are built only when called.
 * A bounded page runs as a prepared statement (docs/search.md#prepared-search-statements).
 */
export async function featureSearchStatements(db: Kysely<Database>, query: FeatureSearchQuery) {
  const q = query ?? {};
  let matches: TermMatches | undefined;
  if (q.query?.length) {
    const counts = await trigramCounts(db);
    const all = termMatches(
      db,
      q.query.map((term) => ({ term, part: rarePart(term, counts) })),
    );
    // Not prepared: planned for its patterns, it may read the table where a part is in most names (docs/search.md#rare-part).
    const found = await all.limit(LISTED_MATCHES + 1).execute();
    matches = found.length <= LISTED_MATCHES ? { names: found.map((m) => m.feature_name) } : { all };
  }
  // The first carriers of any of the tags, read by the page itself: else the total reads every flag to join them.
  const tags = q.tag?.mode === "any" ? (q.tag.values as { type: string; value: string }[]) : undefined;
  const listing = tags !== undefined;
  const sort = q.sortBy;
  const ordered = (listed: boolean) => {
    // The limit a literal: a generic plan that does not know it expects to stop early, and walks an index whole.
    // The common table is read in raw SQL only (featureSearchConditions): the builder is typed as without it.
    const base: QueryCreator<Database> = listed
      ? (db.with(LISTED_CARRIERS, () =>
          tagCarriers(db, tags ?? []).limit(sql.lit(LISTED_MATCHES + 1)),
        ) as unknown as QueryCreator<Database>)
      : db;
    const matching = base
      .selectFrom("features")
      .where((eb) => eb.and(featureSearchConditions(eb, q, matches, listed ? LISTED_MATCHES : undefined)));
    // Sorting by an environment joins its rows, rather than asking for each flag in turn.
    const joined = matching.$if(sort?.field === "environment", (qb) => {
      const environment = sort?.field === "environment" ? sort.environment : "";
      return qb
        .leftJoin("feature_environments as sort_fe", (join) =>
          join.onRef("sort_fe.feature_name", "=", "features.name").on("sort_fe.environment_name", "=", environment),
        )
        .leftJoin("project_environments as sort_pe", (join) =>
          join.onRef("sort_pe.project_id", "=", "features.project_id").on("sort_pe.environment_name", "=", environment),
        );
    });
    return featureSearchOrder(q)
      .reduce((rows, order) => rows.orderBy(order), joined.select(FEATURE_COLUMNS))
      .select([
        // The stamps its results are kept under, read with it (docs/search.md#result-stamps).
        sql<string | null>`(select s.stamp from feature_search_stamps s where s.feature_name = features.name)`.as("search_stamp"),
        sql<string | null>`(select epoch from feature_search_epoch limit 1)`.as("search_epoch"),
        sql<Date>`statement_timestamp()`.as("searched_at"),
      ])
      .limit(q.limit ?? SEARCH_LIMIT_DEFAULT)
      .offset(q.offset ?? 0);
  };
  const bounded = (matches !== undefined && "names" in matches) || listing;
  // Every matching row is read to sort them anyway: counting them on the way costs nothing more.
  const page = ordered(listing).$if(bounded, (qb) => qb.select(sql<string>`count(*) over ()`.as("matching")));
  // Built when asked for: a listed search that answers its page runs neither.
  const openPage = listing ? () => ordered(false) : undefined;
  const total = () =>
    db
      .selectFrom("features")
      .where((eb) => eb.and(featureSearchConditions(eb, q, matches)))
      .select((eb) => eb.fn.countAll<string>().as("total"));
  return { page, openPage, total, bounded };
}

/**
 * GET /api/admin/search/features: one page of the flags that match and their total, side by
 * side; only the page's flags are read further.
 */
export async function searchFeatures(
  db: Kysely<Database>,
  query: FeatureSearchQuery,
): Promise<{ features: FeatureSearchResult[]; total: number }> {
  const { page, openPage, total, bounded } = await featureSearchStatements(db, query);
  if (bounded) {
    const rows = await executePrepared(db, page);
    const first = rows[0];
    if (first) return { features: await searchResultsFor(db, rows), total: Number(first.matching) };
    // No row carries the count: nothing matches, the page is past the last, or the tags' carriers
    // were too many to list. The total tells which (the open page asked beside it, kept only before
    // the total); only an empty first page of listed terms is 0.
    const offset = query?.offset ?? 0;
    if (offset === 0 && !openPage) return { features: [], total: 0 };
    const [counted, open] = await Promise.all([total().executeTakeFirstOrThrow(), openPage ? openPage().execute() : []]);
    const count = Number(counted.total);
    return { features: await searchResultsFor(db, offset < count ? open : []), total: count };
  }
  const [rows, count] = await Promise.all([page.execute(), total().executeTakeFirstOrThrow()]);
  return { features: await searchResultsFor(db, rows), total: Number(count.total) };
}
