import { type Command, parseFlags } from "./command.ts";

export const serve: Command = {
  words: ["serve"],
  keepsRunning: true,
  summary: "start the HTTP server (what `pnpm start` starts)",
  help: `Usage: vexil serve

Migrates the database, creates the "admin" user on a first start (password ADMIN_PASSWORD, by
default "unleash4all") and the tokens in INIT_ADMIN_API_TOKENS, then serves the admin API on
http://HOST:PORT (default http://127.0.0.1:4242) until SIGINT or SIGTERM, when it lets
in-flight requests finish.

All settings come from environment variables, e.g. PORT=4343 vexil serve; the README lists them.
The embedded database (no DATABASE_URL) can be open in one process at a time: stop the server
before running other commands against it.`,

  async run(args, terminal) {
    parseFlags(args, {});
    // Loaded here: the HTTP stack takes seconds to load, which the other commands need not wait for.
    const { runServer } = await import("../run-server.ts");
    await runServer(terminal.env);
  },
};
