import { type AliasedRawBuilder, sql } from "kysely";

/**
 * A table made of text arrays given column by column, numbered from 1 in `position`, so that one
 * prepared statement can look up any number of keys (`unnest ... with ordinality`).
 */
export function textRows<A extends string, C extends string>(
  alias: A,
  columns: Record<C, readonly string[]>,
): AliasedRawBuilder<Record<C, string> & { position: number }, A> {
  const names = Object.keys(columns) as C[];
  const arrays = sql.join(names.map((name) => sql`${columns[name]}::text[]`));
  const columnNames = sql.join([...names, "position"].map((name) => sql.id(name)));
  return sql<Record<C, string> & { position: number }>`(select * from unnest(${arrays}) with ordinality as t(${columnNames}))`.as(alias);
}
