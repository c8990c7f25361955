import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { appendEvent } from "../events/append-event.ts";
import { applyChangeRequest } from "./apply-change-request.ts";

export interface SchedulerOutcome {
  applied: number[];
  failed: number[];
}

/**
 * Applies every due Scheduled request (marking a failed one with its reason), each claimed with
 * FOR UPDATE SKIP LOCKED in the transaction that applies it, so that any number of instances can
 * run this at once and each request is applied exactly once.
 */
export async function runDueChangeRequests(db: Kysely<Database>, limit = 100): Promise<SchedulerOutcome> {
  const outcome: SchedulerOutcome = { applied: [], failed: [] };
  for (let i = 0; i < limit; i++) {
    let claimed: number | undefined;
    try {
      claimed = await db.transaction().execute(async (trx) => {
        const request = await trx
          .selectFrom("change_requests")
          .selectAll()
          .where("state", "=", "Scheduled")
          .where("schedule_status", "=", "pending")
          .where("scheduled_at", "<=", sql<Date>`now()`)
          .orderBy("scheduled_at")
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!request) return undefined;
        try {
          await applyChangeRequest(trx, null, request);
        } catch (error) {
          throw new ScheduledApplyFailed(request.id, error);
        }
        return request.id;
      });
    } catch (error) {
      if (!(error instanceof ScheduledApplyFailed)) throw error;
      await markScheduleFailed(db, error.changeRequestId, error.reason);
      outcome.failed.push(error.changeRequestId);
      continue;
    }
    if (claimed === undefined) break;
    outcome.applied.push(claimed);
  }
  return outcome;
}

class ScheduledApplyFailed extends Error {
  readonly reason: string;
  constructor(
    readonly changeRequestId: number,
    cause: unknown,
  ) {
    super(`Scheduled change request ${changeRequestId} failed to apply`);
    this.reason = cause instanceof Error ? cause.message : String(cause);
  }
}

// The failed apply was rolled back; the failure is recorded on the request in a transaction of its own.
async function markScheduleFailed(db: Kysely<Database>, id: number, reason: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const request = await trx
      .selectFrom("change_requests")
      .select(["id", "project_id", "environment_name"])
      .where("id", "=", id)
      .where("state", "=", "Scheduled")
      .where("schedule_status", "=", "pending")
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!request) return;
    await trx
      .updateTable("change_requests")
      .set({ schedule_status: "failed", schedule_reason: reason.slice(0, 1000) })
      .where("id", "=", id)
      .execute();
    await appendEvent(trx, null, {
      type: "change-request-schedule-failed",
      project: request.project_id,
      environment: request.environment_name,
      data: { id, reason },
    });
  });
}
