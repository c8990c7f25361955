import { type Command, parseFlags } from "./command.ts";

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
    const { runMigrate } = await import("./run-migrate.ts");
    await runMigrate(terminal);
  },
};
