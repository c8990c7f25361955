import type { Logger } from "@vexil/api";
import type { Database } from "@vexil/db";
import {
  forgetExpiredAuthRecords,
  markPotentiallyStaleFlags,
  pruneUnknownFlags,
  rollUpClientMetrics,
  type SessionPolicy,
} from "@vexil/services";
import type { Kysely } from "kysely";
import { type PeriodicTask, startPeriodicTask } from "./periodic-task.ts";

export interface HousekeepingPolicy {
  sessions: SessionPolicy;
  /** Days of SDK metrics kept per day (METRICS_RETENTION_DAYS). */
  metricsRetentionDays: number;
}

/**
 * At start and every `intervalMs`: deletes expired sessions and failed-login records that count for
 * nothing any more, marks flags older than their type's lifetime potentially stale, and rolls SDK
 * metrics up from hours to days and deletes days past their retention, and forgets unknown flags not
 * reported for a day (docs/usage.md#unknown-flags). Every instance runs it: the
 * deletes are idempotent, the staleness pass queues on a Postgres advisory lock and changes only
 * what is still out of date, so each flag gets one event, and the metrics pass runs on one instance
 * at a time, the others skipping it (docs/sdk-protocols.md#metrics-storage).
 */
export function startHousekeeping(db: Kysely<Database>, log: Logger, policy: HousekeepingPolicy, intervalMs: number): PeriodicTask {
  return startPeriodicTask(log, "housekeeping", intervalMs, async () => {
    const [auth, staleness, metrics, unknownFlags] = await Promise.allSettled([
      forgetExpiredAuthRecords(db, policy.sessions),
      markPotentiallyStaleFlags(db),
      rollUpClientMetrics(db, { retentionDays: policy.metricsRetentionDays }),
      pruneUnknownFlags(db),
    ]);
    if (auth.status === "fulfilled" && (auth.value.sessions || auth.value.loginFailures || auth.value.oidcLogins))
      log.info(auth.value, "expired auth records deleted");
    if (staleness.status === "fulfilled" && staleness.value.on.length + staleness.value.off.length > 0) {
      log.info(staleness.value, "potentially stale flags reassessed");
      if (staleness.value.statisticsFailed)
        log.warn(
          { reason: staleness.value.statisticsFailed },
          "the flags' and events' statistics were left to autovacuum (docs/search.md#statistics-after-bulk-writes)",
        );
    }
    if (metrics.status === "fulfilled" && (metrics.value.hourlyRowsRolledUp || metrics.value.dailyRowsDeleted)) {
      log.info(metrics.value, "SDK metrics rolled up to days and pruned");
    }
    if (unknownFlags.status === "fulfilled" && unknownFlags.value > 0) log.info({ deleted: unknownFlags.value }, "unknown flags pruned");
    // Each part ran whatever the others did; a failure is logged by the task and retried at the next interval.
    const failed = [auth, staleness, metrics, unknownFlags].find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  });
}
