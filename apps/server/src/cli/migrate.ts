import { connectDatabase, migrateToLatest } from "@vexil/db";
import { loadConfig } from "../config.ts";
import { type Command, parseFlags } from "./command.ts";
import { announceNewEmbeddedDatabase, describeDatabase } from "./open-database.ts";

export const migrate: Command = {
  words: ["migrate"],
  summary: "bring the database schema up to date and say what was applied",
  help: `Usage: vexil migrate

Applies the migrations the database has not had yet and prints the name of each one applied
(nothing when it is up to date). \`vexil serve\` and the other commands also migrate before they
start; this command only migrates. Several processes may migrate one Postgres at once.

The database is the one \`vexil serve\` uses: DATABASE_URL when set, else the embedded database
in DATA_DIR (default .vexil/data).`,

  async run(args, terminal) {
    parseFlags(args, {});
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
  },
};
