import type { Database } from "@vexil/db";
import { type Kysely, sql, type Transaction } from "kysely";
import { isRuleFailure } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { applyChangeRequest } from "./apply-change-request.ts";
import type { ChangeRequestRow } from "./require-change-request.ts";

export interface SchedulerOptions {
  /** Requests looked at in one pass, at most. */
  limit?: number;
  /** Transient failures a request may meet; the last of them is recorded as its failure. */
  maxAttempts?: number;
  /** The wait after a first transient failure, doubled after each further one. */
  retryDelayMs?: number;
}

/** A request left Scheduled after a transient failure of its apply, for a later pass to try again. */
interface ScheduledApplyRetry {
  id: number;
  /** Transient failures so far, this one included. */
  attempts: number;
  error: unknown;
}

export interface SchedulerOutcome {
  applied: number[];
  /** Recorded as failed: a change that no longer applies, or too many transient failures. */
  failed: number[];
  retrying: ScheduledApplyRetry[];
}

const SCHEDULED_APPLY_MAX_ATTEMPTS = 5;

/**
 * Applies every due Scheduled request, each claimed with FOR UPDATE SKIP LOCKED in the transaction
 * that applies it, so that any number of instances can run this at once and each request is
 * applied exactly once. A change that no longer applies fails its request with the reason; any
 * other failure (the database lost or slow) leaves it Scheduled to be retried after a delay kept
 * on the row, until `maxAttempts` such failures fail it too.
 */
export async function runDueChangeRequests(db: Kysely<Database>, options: SchedulerOptions = {}): Promise<SchedulerOutcome> {
  const { limit = 100, maxAttempts = SCHEDULED_APPLY_MAX_ATTEMPTS, retryDelayMs = 10_000 } = options;
  const outcome: SchedulerOutcome = { applied: [], failed: [], retrying: [] };
  // Requests that failed in this pass wait for a later one, even when the delay is already over.
  const triedInThisPass: number[] = [];
  for (let i = 0; i < limit; i++) {
    const attempt: { request?: ChangeRequestRow } = {};
    try {
      const applied = await db.transaction().execute(async (trx) => {
        attempt.request = await trx
          .selectFrom("change_requests")
          .selectAll()
          .where("state", "=", "Scheduled")
          .where("schedule_status", "=", "pending")
          .where("scheduled_at", "<=", sql<Date>`now()`)
          .where((eb) => eb.or([eb("schedule_retry_at", "is", null), eb("schedule_retry_at", "<=", sql<Date>`now()`)]))
          .$if(triedInThisPass.length > 0, (query) => query.where("id", "not in", triedInThisPass))
          .orderBy("scheduled_at")
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!attempt.request) return false;
        await applyChangeRequest(trx, null, attempt.request);
        return true;
      });
      if (!applied) break;
      outcome.applied.push((attempt.request as ChangeRequestRow).id);
    } catch (error) {
      // Nothing was claimed: the database failed the look-up itself, and the pass fails as a whole.
      if (!attempt.request) throw error;
      const { id } = attempt.request;
      triedInThisPass.push(id);
      if (isRuleFailure(error)) {
        if (await markScheduleFailed(db, id, error.message)) outcome.failed.push(id);
        continue;
      }
      const attempts = await recordTransientFailure(db, id, error, maxAttempts, retryDelayMs);
      if (attempts === undefined) continue;
      if (attempts >= maxAttempts) outcome.failed.push(id);
      else outcome.retrying.push({ id, attempts, error });
    }
  }
  return outcome;
}

/**
 * The failed apply was rolled back; its failure is recorded in a transaction of its own, if the
 * request is still waiting (a manual apply or a commit that did land may have moved it meanwhile).
 */
async function withPendingRequest<T>(
  db: Kysely<Database>,
  id: number,
  record: (
    trx: Transaction<Database>,
    request: Pick<ChangeRequestRow, "project_id" | "environment_name" | "schedule_attempts">,
  ) => Promise<T>,
): Promise<T | undefined> {
  return db.transaction().execute(async (trx) => {
    const request = await trx
      .selectFrom("change_requests")
      .select(["project_id", "environment_name", "schedule_attempts"])
      .where("id", "=", id)
      .where("state", "=", "Scheduled")
      .where("schedule_status", "=", "pending")
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    return request ? record(trx, request) : undefined;
  });
}

async function markScheduleFailed(db: Kysely<Database>, id: number, reason: string): Promise<boolean> {
  const marked = await withPendingRequest(db, id, async (trx, request) => {
    await failSchedule(trx, id, request, reason);
    return true;
  });
  return marked === true;
}

/** Counts one more transient failure; returns the count, or undefined if the request is no longer waiting. */
async function recordTransientFailure(
  db: Kysely<Database>,
  id: number,
  error: unknown,
  maxAttempts: number,
  retryDelayMs: number,
): Promise<number | undefined> {
  return withPendingRequest(db, id, async (trx, request) => {
    const attempts = request.schedule_attempts + 1;
    if (attempts >= maxAttempts) {
      const last = error instanceof Error ? error.message : String(error);
      await failSchedule(trx, id, request, `Failed to apply ${attempts} times on transient errors; the last: ${last}`, attempts);
      return attempts;
    }
    const delaySeconds = (retryDelayMs * 2 ** (attempts - 1)) / 1000;
    await trx
      .updateTable("change_requests")
      .set({ schedule_attempts: attempts, schedule_retry_at: sql<Date>`now() + make_interval(secs => ${delaySeconds})` })
      .where("id", "=", id)
      .execute();
    return attempts;
  });
}

async function failSchedule(
  trx: Transaction<Database>,
  id: number,
  request: Pick<ChangeRequestRow, "project_id" | "environment_name" | "schedule_attempts">,
  reason: string,
  attempts = request.schedule_attempts,
): Promise<void> {
  await trx
    .updateTable("change_requests")
    .set({ schedule_status: "failed", schedule_reason: reason.slice(0, 1000), schedule_attempts: attempts, schedule_retry_at: null })
    .where("id", "=", id)
    .execute();
  await appendEvent(trx, null, {
    type: "change-request-schedule-failed",
    project: request.project_id,
    environment: request.environment_name,
    data: { id, reason },
  });
}
