import type { Logger } from "@vexil/api";
import type { Database } from "@vexil/db";
import { forgetExpiredAuthRecords, type SessionPolicy } from "@vexil/services";
import type { Kysely } from "kysely";
import { type PeriodicTask, startPeriodicTask } from "./periodic-task.ts";

/**
 * Deletes expired sessions and failed-login records that count for nothing any more, at start and
 * every `intervalMs`. Every instance runs it; the deletes are idempotent, so they need no lock.
 */
export function startHousekeeping(db: Kysely<Database>, log: Logger, policy: SessionPolicy, intervalMs: number): PeriodicTask {
  return startPeriodicTask(log, "deleting expired auth records", intervalMs, async () => {
    const deleted = await forgetExpiredAuthRecords(db, policy);
    if (deleted.sessions || deleted.loginFailures) log.info(deleted, "expired auth records deleted");
  });
}
