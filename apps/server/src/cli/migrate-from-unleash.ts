import { type Command, parseFlags, required, UsageError } from "./command.ts";

export const migrateFromUnleash: Command = {
  words: ["migrate-from-unleash"],
  summary: "copy a running Unleash's projects, flags, segments and more into this Vexil",
  help: `Usage: vexil migrate-from-unleash --url <Unleash URL> --token <admin token> [--dry-run]

Reads a running Unleash 8.2 through its admin API (--url is its address, such as
https://unleash.example.com; --token an admin API token of it) and copies into the database this
Vexil uses (DATABASE_URL, else the embedded one in DATA_DIR), in one transaction:
environments, projects and the environments enabled in each, tag types, custom strategy types,
segments, and every live flag with, in each environment, its state, strategies (constraints,
segments, strategy variants), variants, tags and dependencies.

Only what is missing or differs is written, so running it again changes nothing (it says so);
a flag or strategy that Unleash changed since is brought up to date. --dry-run prints what it
would do and changes nothing. What cannot be copied (users and their passwords, API token
secrets, context-field definitions, archived flags, ...) is listed at the end of the output.

With the embedded database, stop the server first (one process at a time).
More: docs/migrate-from-unleash.md.`,

  async run(args, terminal) {
    const flags = parseFlags(args, { url: { type: "string" }, token: { type: "string" }, "dry-run": { type: "boolean" } });
    const url = required(flags.url, "url");
    const token = required(flags.token, "token");
    if (!/^https?:\/\/[^/]/.test(url))
      throw new UsageError(`--url must be an http(s) address such as https://unleash.example.com (got "${url}")`);
    const dryRun = flags["dry-run"] === true;
    const { runMigrateFromUnleash } = await import("./run-migrate-from-unleash.ts");
    await runMigrateFromUnleash({ url, token, dryRun }, terminal);
  },
};
