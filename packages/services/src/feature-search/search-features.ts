import { type Database, executePrepared } from "@vexil/db";
import { type Compilable, type Kysely, sql } from "kysely";
import { featureSearchConditions, featureSearchOrder, type TermMatches, tagCarriers, termMatches } from "./feature-search-filters.ts";
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
 * The two statements over the whole table that a search runs: its page of flags, in the order
 * asked, and how many match in all. Each is answered from indexes (docs/search.md#indexes); the
 * tests EXPLAIN these very statements. Terms, and the carriers of any of a tag filter's tags
 * (`tagLookup`), are looked up first, here, once for both. When the flags that can match are listed
 * (`bounded`: at most LISTED_MATCHES of them), the page counts them too and the total is run only
 * past the last page (docs/search.md#one-statement-when-listed). The tags' look-up and a bounded
 * page run as prepared statements (docs/search.md#prepared-search-statements).
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
  // Likewise the carriers of any of the tags: else the total reads every flag to join them.
  let tagged: string[] | undefined;
  let tagLookup: Compilable<{ feature_name: string }> | undefined;
  if (q.tag?.mode === "any") {
    // The limit a literal: a generic plan that does not know it expects to stop early, and walks an index whole.
    tagLookup = tagCarriers(db, q.tag.values as { type: string; value: string }[]).limit(sql.lit(LISTED_MATCHES + 1));
    const found = await executePrepared(db, tagLookup);
    if (found.length <= LISTED_MATCHES) tagged = found.map((m) => m.feature_name);
  }
  const matching = db.selectFrom("features").where((eb) => eb.and(featureSearchConditions(eb, q, matches, tagged)));
  const sort = q.sortBy;
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
  const bounded = (matches !== undefined && "names" in matches) || tagged !== undefined;
  const page = featureSearchOrder(q)
    .reduce((ordered, order) => ordered.orderBy(order), joined.select(FEATURE_COLUMNS))
    // The stamps its results are kept under, read with it (docs/search.md#result-stamps).
    .select([
      sql<string | null>`(select s.stamp from feature_search_stamps s where s.feature_name = features.name)`.as("search_stamp"),
      sql<string | null>`(select epoch from feature_search_epoch limit 1)`.as("search_epoch"),
      sql<Date>`statement_timestamp()`.as("searched_at"),
    ])
    // Every matching row is read to sort them anyway: counting them on the way costs nothing more.
    .$if(bounded, (qb) => qb.select(sql<string>`count(*) over ()`.as("matching")))
    .limit(q.limit ?? SEARCH_LIMIT_DEFAULT)
    .offset(q.offset ?? 0);
  const total = matching.select((eb) => eb.fn.countAll<string>().as("total"));
  return { tagLookup, page, total, bounded };
}

/**
 * GET /api/admin/search/features: one page of the flags that match and their total, side by
 * side; only the page's flags are read further.
 */
export async function searchFeatures(
  db: Kysely<Database>,
  query: FeatureSearchQuery,
): Promise<{ features: FeatureSearchResult[]; total: number }> {
  const { page, total, bounded } = await featureSearchStatements(db, query);
  if (bounded) {
    const rows = await executePrepared(db, page);
    const first = rows[0];
    // Past the last page no row carries the count: asked apart, as when nothing is listed.
    const count = first ? Number(first.matching) : (query?.offset ?? 0) === 0 ? 0 : Number((await total.executeTakeFirstOrThrow()).total);
    return { features: await searchResultsFor(db, rows), total: count };
  }
  const [rows, count] = await Promise.all([page.execute(), total.executeTakeFirstOrThrow()]);
  return { features: await searchResultsFor(db, rows), total: Number(count.total) };
}
