import { existsSync } from "node:fs";
import { join } from "node:path";
import { connectDatabase, type DatabaseConnection, migrateToLatest } from "@vexil/db";
import type { Config } from "../config.ts";
import type { Terminal } from "./terminal.ts";

/** Where the data lives, for messages; never the connection string, which may hold a password. */
export function describeDatabase(config: Config): string {
  return config.DATABASE_URL ? "Postgres (DATABASE_URL)" : `the embedded database in ${config.DATA_DIR}`;
}

/** PGlite's first start (initdb) takes seconds; say so rather than look stuck. */
export function announceNewEmbeddedDatabase(config: Config, terminal: Terminal): void {
  if (!config.DATABASE_URL && !existsSync(join(config.DATA_DIR, "PG_VERSION"))) {
    terminal.progress("Creating the embedded database; the first time takes a few seconds...");
  }
}

/**
 * Opens the database that `serve` would use with the same configuration, brought up to date as
 * `serve` brings it at start, so that any command works on a fresh one.
 */
export async function openMigratedDatabase(config: Config, terminal: Terminal): Promise<DatabaseConnection> {
  terminal.progress(`Using ${describeDatabase(config)}.`);
  announceNewEmbeddedDatabase(config, terminal);
  const db = connectDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: 2,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  try {
    const { applied } = await migrateToLatest(db.kysely);
    if (applied.length) terminal.progress(`Applied ${applied.length} migration${applied.length === 1 ? "" : "s"}.`);
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
