import { connectDatabase, migrateToLatest } from "@vexil/db";
import { loadConfig } from "../config.ts";
import { announceNewEmbeddedDatabase, describeDatabase } from "./open-database.ts";
import type { Terminal } from "./terminal.ts";

/** `vexil migrate`, its flags parsed. */
export async function runMigrate(terminal: Terminal): Promise<void> {
  const config = loadConfig(terminal.env);
  terminal.progress(`Migrating ${describeDatabase(config)}...`);
  announceNewEmbeddedDatabase(config, terminal);
  const db = connectDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 1 });
  try {
    const { applied } = await migrateToLatest(db.kysely);
    for (const name of applied) terminal.print(`applied ${name}`);
    terminal.progress(
      applied.length
        ? `Done: ${applied.length} migration${applied.length === 1 ? "" : "s"} applied.`
        : "Nothing to apply: the database is up to date.",
    );
  } finally {
    await db.close();
  }
}
