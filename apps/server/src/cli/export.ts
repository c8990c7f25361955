import { once } from "node:events";
import { exportDatabase } from "@vexil/db";
import { loadConfig } from "../config.ts";
import { type Command, parseFlags } from "./command.ts";
import { openMigratedDatabase } from "./open-database.ts";

export const exportCommand: Command = {
  words: ["export"],
  summary: "write the whole state as one JSON document on stdout",
  help: `Usage: vexil export > vexil-export.json

Writes everything the database holds (projects, environments, features and their variants,
change-request settings, requests and reviews, banners, users with their password hashes, API
tokens as stored, sessions, the event log, and any table a later version adds) as one JSON
document on stdout, read from one consistent snapshot. Progress goes to stderr. The document
names its schema version, has one row a line, and ends with row counts and a sha256 digest, so
that \`vexil import\` can refuse a changed or cut document and name the line.

It holds password hashes and token hashes: keep it as safe as the database.`,

  async run(args, terminal) {
    parseFlags(args, {});
    const config = loadConfig(terminal.env);
    const db = await openMigratedDatabase(config, terminal);
    try {
      // Backpressure: a slow reader of stdout (a pipe to gzip, ssh) must not make the export buffer it all.
      const write = async (text: string) => {
        if (!terminal.stdout.write(text)) await once(terminal.stdout, "drain");
      };
      await exportDatabase(db.kysely, write, (line) => terminal.progress(`exported ${line}`));
      terminal.progress("Export done.");
    } finally {
      await db.close();
    }
  },
};
