import type { Logger } from "@vexil/api";
import type { Database } from "@vexil/db";
import { runDueChangeRequests } from "@vexil/services";
import type { Kysely } from "kysely";
import { type PeriodicTask, startPeriodicTask } from "./periodic-task.ts";

/**
 * Applies due Scheduled change requests every `intervalMs`. Every instance runs one; the row
 * locks in runDueChangeRequests make sure each request is applied once, whichever instance
 * gets there first, and the first pass at start applies what came due while none ran.
 */
export function startChangeRequestScheduler(db: Kysely<Database>, log: Logger, intervalMs: number): PeriodicTask {
  return startPeriodicTask(log, "processing scheduled change requests", intervalMs, async () => {
    const { applied, failed } = await runDueChangeRequests(db);
    if (applied.length || failed.length) log.info({ applied, failed }, "scheduled change requests processed");
  });
}
