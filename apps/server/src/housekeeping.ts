import type { Logger } from "@vexil/api";
import type { Database } from "@vexil/db";
import { forgetExpiredAuthRecords, markPotentiallyStaleFlags, type SessionPolicy } from "@vexil/services";
import type { Kysely } from "kysely";
import { type PeriodicTask, startPeriodicTask } from "./periodic-task.ts";

/**
 * At start and every `intervalMs`: deletes expired sessions and failed-login records that count for
 * nothing any more, and marks flags older than their type's lifetime potentially stale. Every
 * instance runs it: the deletes are idempotent, and the staleness pass queues on a Postgres
 * advisory lock and changes only what is still out of date, so each flag gets one event.
 */
export function startHousekeeping(db: Kysely<Database>, log: Logger, policy: SessionPolicy, intervalMs: number): PeriodicTask {
  return startPeriodicTask(log, "housekeeping", intervalMs, async () => {
    const [auth, staleness] = await Promise.allSettled([forgetExpiredAuthRecords(db, policy), markPotentiallyStaleFlags(db)]);
    if (auth.status === "fulfilled" && (auth.value.sessions || auth.value.loginFailures))
      log.info(auth.value, "expired auth records deleted");
    if (staleness.status === "fulfilled" && staleness.value.on.length + staleness.value.off.length > 0) {
      log.info(staleness.value, "potentially stale flags reassessed");
    }
    // Each part ran whatever the other did; a failure is logged by the task and retried at the next interval.
    const failed = [auth, staleness].find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  });
}
