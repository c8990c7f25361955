import { type Database, executePrepared } from "@vexil/db";
import { type InferResult, type Kysely, type QueryCreator, sql } from "kysely";
import {
  featureSearchConditions,
  featureSearchOrder,
  type TermMatches,
  tagCondition,
  tagsNarrow,
  termLookup,
  termMatches,
} from "./feature-search-filters.ts";
import { type FeatureSearchQuery, SEARCH_LIMIT_DEFAULT } from "./feature-search-query.ts";
import { rarePart, trigramCounts } from "./rare-part.ts";
import { type FeatureSearchResult, searchResultsFor } from "./feature-search-result.ts";
import { compiledPagesOf } from "./compiled-pages.ts";
import { termsCacheOf, termsKey } from "./kept-terms.ts";
import { type AnswerStamps, keptAnswersOf, type SearchAnswer } from "./kept-answers.ts";

/** Most names a query's terms may match and still be listed in the statements (docs/search.md#indexes). */
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

/** What the page reads of a flag's own columns besides its times, which it reads as milliseconds (millisOf). */
const ROW_COLUMNS = [
  "features.name",
  "features.project_id",
  "features.description",
  "features.type",
  "features.impression_data",
  "features.stale",
  "features.potentially_stale",
] as const;

/**
 * A time as the milliseconds since 1970 that a Date holds (its microseconds dropped, as pg's own
 * parse of the text drops them): a number is parsed at a fraction of the cost of a timestamp's
 * text, which was the largest part of a page's parsing (docs/search.md#one-query).
 * Truncated to the millisecond first, the seconds are a float8 within far less than half a
 * millisecond of a whole count of them, which rounding gives exactly.
 */
const millisOf = (time: string) => sql<number>`round(date_part('epoch', date_trunc('milliseconds', ${sql.raw(time)})) * 1000)`;

/** The page's common table of a tag filter's carriers, read as `features` (docs/search.md#tag-keys). */
const TAG_CARRIERS = "search_carriers";

/**
 * The statements over the whole table that a search runs: its page of flags, in the order asked,
 * and how many match in all. Each is answered from indexes (docs/search.md#indexes); the tests
 * EXPLAIN these very statements. Terms are looked up first, here. When the flags that can match are
 * listed (`bounded`: the terms' at most LISTED_MATCHES matches, or a tag filter's carriers, read
 * first by the page from the index of tag keys), the page counts them too, and past the last page
 * `first` (the same statement, its first row) counts them: no total runs
 * (docs/search.md#totals). The total is built only when called. A bounded page
 * runs as a prepared statement (docs/search.md#one-query). With `terms` "kept",
 * the names the same terms matched before are taken instead of a look-up, if kept: the page must
 * then read `keptGeneration` for them to hold (docs/search.md#one-query).
 */
export async function featureSearchStatements(db: Kysely<Database>, query: FeatureSearchQuery, terms: "kept" | "fresh" = "kept") {
  const q = query ?? {};
  const { matches, keptGeneration } = await termsOf(db, q, terms);
  return { ...statementsFor(db, q, matches), keptGeneration };
}

/**
 * What the query's terms match, if it has any: the names kept for them (`keptGeneration` is then
 * the generation the page must read for them to hold), or looked up (`generation`, read with them).
 * Either way `generation` tells the terms' generation the names are of, when they are listed.
 */
async function termsOf(
  db: Kysely<Database>,
  q: NonNullable<FeatureSearchQuery>,
  terms: "kept" | "fresh",
): Promise<{ matches?: TermMatches; keptGeneration?: string; generation?: string }> {
  if (!q.query?.length) return {};
  const key = termsKey(q.query);
  const kept = terms === "kept" ? termsCacheOf(db).get(key) : undefined;
  if (kept) return { matches: { names: kept.names }, keptGeneration: kept.generation, generation: kept.generation };
  const counts = await trigramCounts(db);
  const searchTerms = q.query.map((term) => ({ term, part: rarePart(term, counts) }));
  // Not prepared: planned for its patterns, it may read the table where a part is in most names (docs/search.md#indexes).
  const found = await termLookup(db, searchTerms)
    .limit(LISTED_MATCHES + 1)
    .execute();
  const cache = termsCacheOf(db);
  if (found.length > LISTED_MATCHES) {
    cache.forget(key);
    return { matches: { all: termMatches(db, searchTerms) } };
  }
  // One row a flag: the union's rows differ by name alone, the generation being one read.
  const names = found.map((m) => m.feature_name);
  // Nothing found is not kept: a page of no rows reads no generation to check it by.
  if (!found[0]) {
    cache.forget(key);
    return { matches: { names } };
  }
  cache.set(key, found[0].generation, names);
  return { matches: { names }, generation: found[0].generation };
}

/** The statements of a search whose terms (if any) matched `matches`. */
function statementsFor(db: Kysely<Database>, q: NonNullable<FeatureSearchQuery>, matches: TermMatches | undefined) {
  const tagFilter = q.tag;
  // The carriers of the tags first, whole rows, from the index of tag keys: the other filters and
  // the order then read those rows alone. Materialized: inlined, a generic plan walks the order's
  // index over every flag, filtering (docs/search.md#tag-keys). Not where the terms listed their
  // few matches: those are read by primary key, and their tags checked on the way.
  const namesListed = matches !== undefined && "names" in matches;
  const carriersFirst = tagFilter !== undefined && tagsNarrow(tagFilter) && !namesListed;
  const from = carriersFirst
    ? // The common table is read as `features`, with the same columns: the builder is typed as that table.
      (
        db.with(
          (cte) => cte(TAG_CARRIERS).materialized(),
          () => db.selectFrom("features").select(FEATURE_COLUMNS).where(tagCondition(tagFilter, true)),
        ) as unknown as QueryCreator<Database>
      ).selectFrom(sql<Database["features"]>`${sql.table(TAG_CARRIERS)}`.as("features"))
    : db.selectFrom("features");
  const matching = from.where((eb) => eb.and(featureSearchConditions(eb, q, matches, carriersFirst)));
  // Sorting by an environment joins its rows, rather than asking for each flag in turn.
  const sort = q.sortBy;
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
  const bounded = namesListed || carriersFirst;
  const pageOf = (limit: number, offset: number) =>
    featureSearchOrder(q)
      .reduce((rows, order) => rows.orderBy(order), joined.select(ROW_COLUMNS))
      .select([
        millisOf("features.created_at").as("created_ms"),
        sql<number | null>`${millisOf("features.archived_at")}`.as("archived_ms"),
        sql<number | null>`${millisOf("features.last_seen_at")}`.as("last_seen_ms"),
        // The stamps its results are kept under, read with it (docs/search.md#one-query).
        sql<string | null>`(select s.stamp from feature_search_stamps s where s.feature_name = features.name)`.as("search_stamp"),
        sql<string | null>`(select epoch from feature_search_epoch limit 1)`.as("search_epoch"),
        // The generation kept terms are checked by (docs/search.md#one-query).
        sql<string | null>`(select generation from feature_search_terms_generation)`.as("search_terms_generation"),
        // The generation whole answers are kept under (docs/search.md#one-query).
        sql<string | null>`(select generation from feature_search_answers_generation)`.as("search_answers_generation"),
        millisOf("statement_timestamp()").as("searched_ms"),
      ])
      .limit(limit)
      .offset(offset)
      // Every matching row is read to sort them anyway: counting them on the way costs nothing more.
      .$if(bounded, (qb) => qb.select(sql<string>`count(*) over ()`.as("matching")));
  const page = pageOf(q.limit ?? SEARCH_LIMIT_DEFAULT, q.offset ?? 0);
  // Past the last page of a bounded search, the same statement's first row counts them all.
  const first = () => pageOf(1, 0);
  const total = () =>
    db
      .selectFrom("features")
      .where((eb) => eb.and(featureSearchConditions(eb, q, matches)))
      .select((eb) => [
        eb.fn.countAll<string>().as("total"),
        // Run beside the page, in a snapshot of its own: the answer is kept only where both read the same.
        sql<string | null>`(select generation from feature_search_answers_generation)`.as("search_answers_generation"),
        millisOf("statement_timestamp()").as("searched_ms"),
      ]);
  return { page, first, total, bounded };
}

/**
 * GET /api/admin/search/features: one page of the flags that match and their total, side by
 * side; only the page's flags are read further. A search made before is answered as it was while
 * the answers' generation and the hour it was read in hold: one statement reads them
 * (docs/search.md#one-query).
 */
export async function searchFeatures(db: Kysely<Database>, query: FeatureSearchQuery): Promise<SearchAnswer> {
  const q = query ?? {};
  const key = JSON.stringify(q);
  const answers = keptAnswersOf(db);
  if (answers.has(key)) {
    const [row] = await executePrepared(db, { compile: () => answers.stampsStatement(() => answersStamps(db).compile()) });
    const kept = row && answers.get(key, { generation: row.generation, now: row.searched_ms });
    if (kept) return kept;
  }
  const { answer, stamps } = await searchWith(db, query, key, "kept");
  if (stamps) answers.set(key, stamps, answer);
  return answer;
}

/** The answers' generation and the database's clock, alone: what a search made again reads first. */
const answersStamps = (db: Kysely<Database>) =>
  db.selectFrom("feature_search_answers_generation").select(["generation", millisOf("statement_timestamp()").as("searched_ms")]);

/** An answer, and the stamps its page was read under where it may be kept. */
interface Searched {
  answer: SearchAnswer;
  stamps?: AnswerStamps;
}

/** The stamps a page's row carries, if any. */
const stampsOf = (row: { search_answers_generation: string | null; searched_ms: number } | undefined): AnswerStamps | undefined =>
  row?.search_answers_generation == null ? undefined : { generation: row.search_answers_generation, now: row.searched_ms };

/** Frozen: a kept answer is the very object every search made again is answered with. */
const answerOf = (features: FeatureSearchResult[], total: number): SearchAnswer =>
  Object.freeze({ features: Object.freeze(features), total });

/** A page's row. */
type PageRow = InferResult<ReturnType<typeof statementsFor>["page"]>[number];

/**
 * The key a search's page is kept compiled under, when its text and values follow from the query
 * alone (no terms), or from the query and the generation its terms' listed names were read under
 * (docs/search.md#one-query); none otherwise.
 */
function pageKey(q: NonNullable<FeatureSearchQuery>, queryKey: string, generation: string | undefined): string | undefined {
  if (!q.query?.length) return `-${queryKey}`;
  return generation === undefined ? undefined : `${generation}:${queryKey}`;
}

/** The search, its query's matches taken from what was kept if any, or looked up; `queryKey` is the query as JSON. */
async function searchWith(db: Kysely<Database>, query: FeatureSearchQuery, queryKey: string, terms: "kept" | "fresh"): Promise<Searched> {
  const q = query ?? {};
  const { matches, keptGeneration, generation } = await termsOf(db, q, terms);
  const key = pageKey(q, queryKey, generation);
  const pages = compiledPagesOf(db);
  // A page made before is not built again: only pages that run prepared are kept (bounded).
  let compiled = key === undefined ? undefined : pages.get<PageRow>(key);
  let statements: ReturnType<typeof statementsFor> | undefined;
  if (!compiled) {
    statements = statementsFor(db, q, matches);
    if (!statements.bounded) {
      const { page, total } = statements;
      const [rows, count] = await Promise.all([page.execute(), total().executeTakeFirstOrThrow()]);
      const answer = answerOf(await searchResultsFor(db, rows), Number(count.total));
      // Kept where the page and the total, each in its own snapshot, read the same generation; or,
      // where the page is empty, where the total alone tells it is (no flag matches, or none past
      // the offset): that answer is the total's snapshot's.
      if (!rows[0]) return { answer, stamps: answer.total <= (q.offset ?? 0) ? stampsOf(count) : undefined };
      const stamps = stampsOf(rows[0]);
      return { answer, stamps: stamps?.generation === count.search_answers_generation ? stamps : undefined };
    }
    compiled = statements.page.compile();
    if (key !== undefined) pages.set(key, compiled);
  }
  const page = compiled;
  const rows = await executePrepared(db, { compile: () => page });
  // Kept names serve only where the page read their generation: else the terms are looked up
  // again, and the page read again over what they match now (docs/search.md#one-query).
  if (keptGeneration !== undefined && rows[0]?.search_terms_generation !== keptGeneration) return searchWith(db, query, queryKey, "fresh");
  const [row] = rows;
  if (row) {
    const answer = answerOf(await searchResultsFor(db, rows), Number(row.matching));
    // Names listed are of the terms' generation read with them, in a statement of their own: kept
    // only where the page read that same generation. Else a write that changed what the terms match
    // committed in between, and the page, newer than the names it read, is not kept under its
    // answers' generation (docs/search.md#one-query).
    return { answer, stamps: generation === undefined || row.search_terms_generation === generation ? stampsOf(row) : undefined };
  }
  // No row carries the count: nothing matches, or the page is past the last. An empty first page
  // is 0; past the last, the first page's row tells, from the same prepared statement. Neither is
  // kept: no row carries the generation.
  if ((query?.offset ?? 0) === 0) return { answer: answerOf([], 0) };
  const [head] = await executePrepared(db, (statements ?? statementsFor(db, q, matches)).first());
  return { answer: answerOf([], head ? Number(head.matching) : 0) };
}
