import { loadConfig } from "../config.ts";
import { type Command, parseFlags, required, UsageError } from "./command.ts";
import { describeDatabase, openMigratedDatabase } from "./open-database.ts";
import { copyUnleashState, type MigrationReport } from "./unleash-migration/copy-unleash-state.ts";
import { notCopied, plural } from "./unleash-migration/not-copied.ts";
import { readUnleash } from "./unleash-migration/read-unleash.ts";
import { unleashAdminClient } from "./unleash-migration/unleash-admin-client.ts";

/** Thrown at the end of a dry run's transaction so that it rolls back, carrying what it would have done. */
class DryRun extends Error {
  constructor(readonly report: MigrationReport) {
    super("dry run");
  }
}

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
    const config = loadConfig(terminal.env);

    terminal.progress(`Reading Unleash at ${url}...`);
    const state = await readUnleash(unleashAdminClient(url, token), terminal.progress);
    const flagCount = new Set(state.documents.flatMap((d) => d.data.features.map((f) => (f as { name: string }).name))).size;
    const counts = [
      plural(state.projects.length, "project"),
      plural(state.environments.length, "environment"),
      plural(state.segments.length, "segment"),
      plural(state.customStrategies.length, "custom strategy type"),
      plural(state.tagTypes.length, "tag type"),
      plural(flagCount, "live flag"),
    ];
    terminal.print(`Unleash ${state.version} at ${url}: ${counts.join(", ")}.`);

    const db = await openMigratedDatabase(config, terminal);
    let report: MigrationReport;
    try {
      report = await db.kysely
        .transaction()
        .execute(async (trx) => {
          const done = await copyUnleashState(trx, state);
          if (dryRun) throw new DryRun(done);
          return done;
        })
        .catch((error: unknown) => {
          if (error instanceof DryRun) return error.report;
          throw error;
        });
    } finally {
      await db.close();
    }

    const where = describeDatabase(config);
    if (report.changes.length === 0) {
      terminal.print(`Nothing changed: ${where} already holds what Unleash has.`);
    } else {
      terminal.print(
        dryRun
          ? `Dry run: ${report.changes.length} changes would be made to ${where}:`
          : `Made ${report.changes.length} changes to ${where}:`,
      );
      for (const change of report.changes) terminal.print(`  ${change}`);
    }
    if (report.leftAsIs.length) {
      terminal.print("Found in Vexil and left as it is:");
      for (const line of report.leftAsIs) terminal.print(`  ${line}`);
    }
    terminal.print("Not copied:");
    for (const line of report.refused) terminal.print(`  refused by Vexil's rules: ${line}`);
    for (const line of notCopied(state)) terminal.print(`  ${line}`);
    if (dryRun) terminal.print("Dry run: nothing was changed.");
  },
};
