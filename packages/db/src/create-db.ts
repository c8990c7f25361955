import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
import type { Database } from "./database.ts";

export interface DbConfig {
  /** A Postgres connection string. When absent, the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Where PGlite keeps its files; `memory://` keeps nothing. */
  dataDir?: string | undefined;
  /** Connections in the pg pool. */
  poolSize?: number | undefined;
  /** Milliseconds a statement may run before Postgres cancels it. */
  statementTimeoutMs?: number | undefined;
}

export interface Db {
  db: Kysely<Database>;
  kind: "postgres" | "pglite";
  /** Closes the pool or the embedded database; a PGlite left open keeps the process alive. */
  close(): Promise<void>;
}

const INT8_OID = 20;
const int8AsNumber = (value: string) => Number.parseInt(value, 10);

/**
 * pg hands int8 (bigint ids, count(*)) back as strings and PGlite as numbers; one parser makes
 * both agree. Ids stay far below 2^53.
 */
const pgTypes = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8_OID && format !== "binary") return int8AsNumber;
    return pg.types.getTypeParser(oid, format as "text");
  },
} as pg.CustomTypesConfig;

export function createDb(config: DbConfig): Db {
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.poolSize ?? 10,
      types: pgTypes,
      connectionTimeoutMillis: 5_000,
      ...(config.statementTimeoutMs ? { statement_timeout: config.statementTimeoutMs } : {}),
    });
    // An idle client that loses its server emits 'error' on the pool; without a listener that
    // would crash the process instead of failing the next query with a 503.
    pool.on("error", () => {});
    // A checked-out client whose server goes away emits 'error' too, outside any query; unheard,
    // that would end the process. Its query, if any, still fails and is answered 503.
    pool.on("connect", (client) => {
      client.on("error", () => {});
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: "postgres", close: () => db.destroy() };
  }

  const dataDir = config.dataDir ?? ".vexil/data";
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const pglite = new PGlite(dataDir);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: "pglite",
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}
