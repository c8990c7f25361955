import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { featureSearchConditions, featureSearchOrder, TERMS, termMatches } from "./feature-search-filters.ts";
import { type FeatureSearchQuery, SEARCH_LIMIT_DEFAULT } from "./feature-search-query.ts";
import { type FeatureRow, type FeatureSearchResult, searchResultsFor } from "./feature-search-result.ts";

/** One page of the flags found, and how many match in all. */
export interface SearchAnswer {
  features: FeatureSearchResult[];
  total: number;
}

/** A flag's columns, named: `tag_keys` is only read by the filters. */
const FEATURE_COLUMNS = [
  "name",
  "project_id",
  "description",
  "type",
  "impression_data",
  "stale",
  "created_at",
  "archived_at",
  "last_seen_at",
] as const;

/**
 * The search as one statement of named common tables, as Unleash's feature-search-store builds it
 * (docs/search.md#indexes): `terms`, the flags whose texts hold the query's terms, if it has any; `matching`, the flags that pass every filter; `page`, those of them in
 * the order asked, past the offset, up to the limit, each with its position; `total`, how many
 * match. `matching` is not materialized: Postgres plans it inside each of the two, so that the page
 * is read in the order of an index and stops at its limit, and the total counts from an index.
 * One row per flag of the page, each with the total; one row with the total alone when the page is
 * empty. The tests EXPLAIN this very statement.
 */
export function featureSearchStatement(db: Kysely<Database>, query: FeatureSearchQuery) {
  const q = query ?? {};
  const order = featureSearchOrder(q);
  const sort = q.sortBy;
  return (
    db
      // Materialized: read once for both the page and the total (inlined, Postgres ran it for each); nothing runs it without a query.
      .with(
        (cte) => cte(TERMS).materialized(),
        () => termMatches(db, q.query ?? []),
      )
      .with(
        (cte) => cte("matching").notMaterialized(),
        (qb) =>
          qb
            .selectFrom("features")
            .select(FEATURE_COLUMNS.map((column) => `features.${column}` as const))
            .where((eb) => eb.and(featureSearchConditions(eb, q))),
      )
      .with("page", (qb) =>
        qb
          .selectFrom("matching as features")
          // Sorting by an environment joins its rows, rather than asking for each flag in turn.
          .$if(sort?.field === "environment", (page) => {
            const environment = sort?.field === "environment" ? sort.environment : "";
            return page
              .leftJoin("feature_environments as sort_fe", (join) =>
                join.onRef("sort_fe.feature_name", "=", "features.name").on("sort_fe.environment_name", "=", environment),
              )
              .leftJoin("project_environments as sort_pe", (join) =>
                join.onRef("sort_pe.project_id", "=", "features.project_id").on("sort_pe.environment_name", "=", environment),
              );
          })
          .selectAll("features")
          .select(sql<string>`row_number() over (order by ${sql.join(order)})`.as("position"))
          .$call((page) => order.reduce((rows, by) => rows.orderBy(by), page))
          .limit(q.limit ?? SEARCH_LIMIT_DEFAULT)
          .offset(q.offset ?? 0),
      )
      .with("total", (qb) => qb.selectFrom("matching").select((eb) => eb.fn.countAll<string>().as("total")))
      .selectFrom("total")
      // Past the last page, the total's row alone.
      .leftJoin("page", (join) => join.onTrue())
      .select(["total.total", ...FEATURE_COLUMNS.map((column) => `page.${column}` as const)])
      .orderBy("page.position")
  );
}

/**
 * GET /api/admin/search/features: one page of the flags that match, and their total, in one
 * statement; then what the page's flags show besides their own columns, read over their names.
 */
export async function searchFeatures(db: Kysely<Database>, query: FeatureSearchQuery): Promise<SearchAnswer> {
  const rows = await featureSearchStatement(db, query).execute();
  const page = rows.filter((row): row is (typeof rows)[number] & FeatureRow => row.name !== null);
  return { features: await searchResultsFor(db, page), total: Number(rows[0]?.total ?? 0) };
}
