import { type Command, parseFlags } from "./command.ts";

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
    const { runExport } = await import("./run-export.ts");
    await runExport(terminal);
  },
};
