import { loadConfig } from "../config.ts";
import { describeDatabase, openMigratedDatabase } from "./open-database.ts";
import type { Terminal } from "./terminal.ts";
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

/** `vexil migrate-from-unleash`, its flags checked. */
export async function runMigrateFromUnleash(
  { url, token, dryRun }: { url: string; token: string; dryRun: boolean },
  terminal: Terminal,
): Promise<void> {
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
}
