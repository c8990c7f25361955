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
    const { applied, failed } = await runDueChangeRequests(db);
    if (applied.length || failed.length) log.info({ applied, failed }, "scheduled change requests processed");
  });
}
