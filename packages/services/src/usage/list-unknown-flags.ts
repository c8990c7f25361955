import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { MAX_UNKNOWN_FLAGS, UNKNOWN_FLAGS_WINDOW_HOURS } from "./prune-unknown-flags.ts";

/** A flag SDKs asked for that does not exist, as Unleash's `unknownFlagSchema` has it. */
export interface UnknownFlag {
  name: string;
  lastSeenAt: Date;
  /** The last event about a flag of that name (one archived, deleted or renamed away), if any. */
  lastEventAt: Date | null;
  reports: { appName: string; environments: { environment: string; seenAt: Date }[] }[];
}

/**
 * GET /api/admin/metrics/unknown-flags: the flags reported within the last day that still do not
 * exist, by name, each with the applications and environments that asked (docs/usage.md#unknown-flags).
 */
export async function listUnknownFlags(db: Kysely<Database>, now = new Date()): Promise<UnknownFlag[]> {
  const since = new Date(now.getTime() - UNKNOWN_FLAGS_WINDOW_HOURS * 3_600_000);
  const rows = await db
    .selectFrom("unknown_flags as u")
    .select(["u.name", "u.app_name", "u.environment", "u.seen_at"])
    .select((eb) =>
      eb
        .selectFrom("events as e")
        .select((s) => s.fn.max("e.created_at").as("at"))
        .whereRef("e.feature_name", "=", "u.name")
        .as("last_event_at"),
    )
    .where("u.seen_at", ">=", since)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("features as f").select("f.name").whereRef("f.name", "=", "u.name"))))
    .orderBy("u.name")
    .orderBy("u.app_name")
    .orderBy("u.environment")
    .execute();
  const flags: UnknownFlag[] = [];
  for (const row of rows) {
    let flag = flags.at(-1);
    if (!flag || flag.name !== row.name) {
      if (flags.length === MAX_UNKNOWN_FLAGS) break;
      flag = { name: row.name, lastSeenAt: row.seen_at, lastEventAt: row.last_event_at ?? null, reports: [] };
      flags.push(flag);
    }
    if (flag.lastSeenAt < row.seen_at) flag.lastSeenAt = row.seen_at;
    let report = flag.reports.at(-1);
    if (!report || report.appName !== row.app_name) {
      report = { appName: row.app_name, environments: [] };
      flag.reports.push(report);
    }
    report.environments.push({ environment: row.environment, seenAt: row.seen_at });
  }
  return flags;
}
