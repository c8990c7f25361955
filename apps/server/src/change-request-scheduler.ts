import type { Logger } from "@vexil/api";
import type { Database } from "@vexil/db";
import { runDueChangeRequests } from "@vexil/services";
import type { Kysely } from "kysely";
import { type PeriodicTask, startPeriodicTask } from "./periodic-task.ts";

/**
 * Applies due Scheduled change requests at start and every `intervalMs` on every instance (the
 * row locks of runDueChangeRequests apply each one once), so nothing waits for a particular instance.
 */
export function startChangeRequestScheduler(db: Kysely<Database>, log: Logger, intervalMs: number): PeriodicTask {
  return startPeriodicTask(log, "processing scheduled change requests", intervalMs, async () => {
    // A request that met a transient failure waits one interval at the least before any instance tries it again.
    const { applied, failed, retrying } = await runDueChangeRequests(db, { retryDelayMs: intervalMs });
    for (const { id, attempts, error } of retrying) {
      log.warn({ err: error, changeRequestId: id, attempts }, "a scheduled change request met a transient failure; it will be retried");
    }
    if (applied.length || failed.length) log.info({ applied, failed }, "scheduled change requests processed");
  });
}
