import type pg from "pg";

// SQL text -> statement name, for the few queries every request runs.
const NAMES = new Map<string, string>();

/**
 * Marks a hot query to run as a named prepared statement on Postgres, so each connection parses
 * and plans it once instead of on every request (Postgres shares the machine's cores with us).
 * Only fixed SQL with explicit columns belongs here: a prepared `select *` breaks when a
 * migration changes the table under a running instance. Returns the SQL unchanged.
 */
export function preparedStatement(name: string, sql: string): string {
  NAMES.set(sql, name);
  return sql;
}

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** Sends the marked queries of one pooled client by name; everything else passes through as is. */
export function namePreparedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (config, values, callback) => {
    const name = typeof config === "string" ? NAMES.get(config) : undefined;
    if (name === undefined) return query(config, values, callback);
    return query({ name, text: config, values }, callback);
  };
}
