import { importDatabase, LATEST_SCHEMA, readDocument, refuseOtherSchema } from "@vexil/db";
import { loadConfig } from "../config.ts";
import { type Command, parseFlags, UsageError } from "./command.ts";
import { describeDatabase, openMigratedDatabase } from "./open-database.ts";

export const importCommand: Command = {
  words: ["import"],
  summary: "load a document made by `vexil export` from stdin into a new database",
  help: `Usage: vexil import < vexil-export.json

Loads a document written by \`vexil export\` into the database (DATABASE_URL, else the embedded
one in DATA_DIR), in one transaction: ids, timestamps, banner order, password hashes and tokens
are kept, so users log in and tokens work as before. This is the way from the embedded database
to a real Postgres, and back:
  vexil export > vexil-export.json
  DATABASE_URL=postgres://... vexil import < vexil-export.json

It refuses, changing nothing:
  - a database that is not new (anything beyond what its migrations create, e.g. after a first
    \`vexil serve\`, which creates the admin user);
  - a document of another schema version (export and import with the same Vexil version);
  - a document that was changed or cut short, naming the line where it broke.`,

  async run(args, terminal) {
    parseFlags(args, {});
    const config = loadConfig(terminal.env);
    if (terminal.stdin.isTTY) throw new UsageError("give the document on stdin: vexil import < vexil-export.json");
    let text = "";
    terminal.stdin.setEncoding("utf8");
    for await (const chunk of terminal.stdin) text += chunk;
    // Read and checked in full before the database is touched.
    const document = readDocument(text);
    refuseOtherSchema(document.header, LATEST_SCHEMA, "this Vexil");
    terminal.progress(`Read a document of schema ${document.header.schema}, exported at ${document.header.exportedAt}.`);
    const db = await openMigratedDatabase(config, terminal);
    try {
      const { statisticsFailed } = await importDatabase(db.kysely, document, (line) => terminal.progress(`imported ${line}`));
      terminal.progress(`Import done into ${describeDatabase(config)}.`);
      if (statisticsFailed)
        terminal.progress(`The planner's statistics were not gathered (${statisticsFailed}): run ANALYZE on the database.`);
    } finally {
      await db.close();
    }
  },
};
