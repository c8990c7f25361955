import type { Logger } from "@vexil/api";
import type { Database } from "@vexil/db";
import { runDueChangeRequests } from "@vexil/services";
import type { Kysely } from "kysely";

export interface Scheduler {
  /** Runs one pass now; passes never overlap within an instance. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Applies due Scheduled change requests every `intervalMs`. Every instance runs one; the row
 * locks in runDueChangeRequests make sure each request is applied once, whichever instance
 * gets there first, and the first pass at start applies what came due while none ran.
 */
export function startChangeRequestScheduler(db: Kysely<Database>, log: Logger, intervalMs: number): Scheduler {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= runDueChangeRequests(db)
      .then(({ applied, failed }) => {
        if (applied.length || failed.length) log.info({ applied, failed }, "scheduled change requests processed");
      })
      .catch((error) => log.warn({ err: error }, "scheduled change requests could not be processed; will retry"))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = intervalMs > 0 ? setInterval(tick, intervalMs) : undefined;
  timer?.unref();
  if (intervalMs > 0) void tick();
  return {
    tick,
    stop: async () => {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
