import type { PostgresPool, PostgresPoolClient } from "kysely";
import type pg from "pg";
import { statementNameFor } from "./prepared-query.ts";

/**
 * The pg pool as Kysely's Postgres dialect sees it, sending the queries of `preparedQuery` as
 * named statements and everything else as it is; `prepare` readies each connection it hands out.
 */
export function namedStatementPool(pool: pg.Pool, prepare: (client: pg.PoolClient) => Promise<void>): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    query: ((query: unknown, parameters?: unknown[]) => {
      if (typeof query !== "string") return client.query(query as pg.Submittable);
      const name = statementNameFor(query);
      return client.query(name === undefined ? { text: query, values: parameters } : { name, text: query, values: parameters });
    }) as unknown as PostgresPoolClient["query"],
    release: () => client.release(),
  });
  return {
    connect: async () => {
      const client = await pool.connect();
      try {
        await prepare(client);
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      let wrapped = clients.get(client);
      if (!wrapped) clients.set(client, (wrapped = wrap(client)));
      return wrapped;
    },
    end: () => pool.end(),
  };
}
