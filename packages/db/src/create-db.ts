import { mkdirSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { lockDataDir } from "./data-dir-lock.ts";
import { lazyPostgresDialect } from "./lazy-dialect.ts";
import { namedStatementPool } from "./named-statement-pool.ts";
import type { Database } from "./database.ts";
import { type ListenHandlers, type Listener, listenOnPglite, listenOnPostgres } from "./listener.ts";
import { ownNotifications } from "./own-notifications.ts";

export interface DatabaseConfig {
  /** A Postgres connection string. When absent, the embedded PGlite database is used. */
  databaseUrl?: string | undefined;
  /** Where PGlite keeps its files; `memory://` keeps nothing. */
  dataDir?: string | undefined;
  /** A data directory tarball that a new embedded database starts from instead of initdb. */
  embeddedTemplate?: Blob | undefined;
  /** Connections in the pg pool. */
  poolSize?: number | undefined;
  /** Milliseconds a statement may run before Postgres cancels it. */
  statementTimeoutMs?: number | undefined;
}

/** An open database: the typed query builder over it, what kind it is, its notifications, and its close. */
export interface DatabaseConnection {
  kysely: Kysely<Database>;
  kind: "postgres" | "pglite";
  /**
   * Receives each NOTIFY on a channel once: those of this DatabaseConnection's own writes before the write
   * returns, the others' on a connection of its own.
   */
  listen(channel: string, handlers: ListenHandlers): Listener;
  /** The pool's connections now (for monitoring); undefined for the embedded database, which has none. */
  poolStats(): PoolStats | undefined;
  /** Closes the pool or the embedded database; a PGlite left open keeps the process alive. */
  close(): Promise<void>;
}

interface PoolStats {
  /** Open connections, idle or in use. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  max: number;
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

export function connectDatabase(config: DatabaseConfig): DatabaseConnection {
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
    const own = ownNotifications(pool);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: namedStatementPool(pool, own.prepare) }) });
    const databaseUrl = config.databaseUrl;
    // Closed with the pool, so that no listener's connection outlives it and keeps the process up.
    const listeners = new Set<Listener>();
    return {
      kysely: db,
      kind: "postgres",
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: config.poolSize ?? 10 }),
      listen: (channel, handlers) => {
        const stopOwn = own.add(channel, handlers.onMessage);
        const heard = listenOnPostgres(databaseUrl, channel, handlers, (pid) => own.heardByWriter(pid, channel));
        const listener = {
          close: async () => {
            stopOwn();
            listeners.delete(listener);
            await heard.close();
          },
        };
        listeners.add(listener);
        return listener;
      },
      close: async () => {
        await Promise.all([...listeners].map((listener) => listener.close()));
        await db.destroy();
      },
    };
  }

  const dataDir = config.dataDir ?? ".vexil/data";
  const inMemory = dataDir.startsWith("memory://");
  // Throws DataDirInUse before anything is opened when another process holds the directory.
  const unlock = inMemory ? () => {} : lockDataDir(dataDir);
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  // Opened on first use: see lazyPostgresDialect.
  let opening: Promise<PGlite> | undefined;
  const open = () =>
    (opening ??= import("./embedded/open-pglite.ts").then(({ openPglite }) => openPglite(dataDir, config.embeddedTemplate)));
  const db = new Kysely<Database>({
    dialect: lazyPostgresDialect(async () => new (await import("kysely-pglite-dialect")).PGliteDialect(await open())),
  });
  return {
    kysely: db,
    kind: "pglite",
    poolStats: () => undefined,
    listen: (channel, handlers) => listenOnPglite(open(), channel, handlers),
    close: async () => {
      try {
        await db.destroy();
        const pglite = opening && (await opening);
        if (pglite && !pglite.closed) await pglite.close();
      } finally {
        unlock();
      }
    },
  };
}
