import { type Command, parseFlags } from "./command.ts";

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
    const { runImport } = await import("./run-import.ts");
    await runImport(terminal);
  },
};
