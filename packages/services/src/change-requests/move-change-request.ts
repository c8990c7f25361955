import type { Database } from "@vexil/db";
import { type Kysely, sql, type Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { ConflictError, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { moveRefusal } from "./allowed-moves.ts";
import { applyChangeRequest } from "./apply-change-request.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import type { ChangeRequestState, ChangeRequestView } from "./change-request.ts";
import { changeRequestView } from "./get-change-request.ts";
import { requireChangeRequest } from "./require-change-request.ts";

export interface StateChange {
  state: ChangeRequestState;
  comment?: string | undefined;
  scheduledAt?: Date | undefined;
  /** The `version` the caller read; when given, the move is refused if the request has changed since. */
  version?: number | undefined;
}

/**
 * Moves a change request to another state under the rules of docs/change-requests.md#change-request-states (`moveRefusal`
 * decides who may make which move) and returns it; applying carries the changes out in the same transaction.
 */
export async function moveChangeRequest(
  db: Kysely<Database>,
  by: Principal,
  projectId: string,
  id: number,
  change: StateChange,
): Promise<ChangeRequestView> {
  await inTransaction(db, (trx) => storeMove(trx, by, projectId, id, change));
  return changeRequestView(db, id, by);
}

async function storeMove(trx: Transaction<Database>, by: Principal, projectId: string, id: number, change: StateChange): Promise<void> {
  // The row is locked: two approvers, or an approver and the scheduler, must not both act on one state.
  const request = await requireChangeRequest(trx, projectId, id, { forUpdate: true });
  const from = request.state as ChangeRequestState;
  const env = request.environment_name;
  const refusal = moveRefusal(
    by,
    { id, state: from, environment: env, project: projectId, authorId: request.created_by_user_id },
    change.state,
  );
  if (refusal) throw refusal;
  if (change.version !== undefined) {
    // Under the row lock a change being added waits, so the version read here is the one approved.
    const latest = await trx
      .selectFrom("change_request_changes")
      .select((eb) => eb.fn.max("id").as("id"))
      .where("change_request_id", "=", id)
      .executeTakeFirst();
    if (Number(latest?.id ?? 0) !== change.version)
      throw new ConflictError("The change request changed since you read it; read it again and review its changes.");
  }
  let next: ChangeRequestState = change.state;
  const updates: Partial<{ scheduled_at: Date | null; schedule_status: string | null; schedule_reason: string | null }> = {};

  switch (change.state) {
    case "In review": {
      const any = await trx
        .selectFrom("change_request_changes")
        .select("id")
        .where("change_request_id", "=", id)
        .limit(1)
        .executeTakeFirst();
      if (!any) throw new ValidationError("A change request needs at least one change before review.");
      break;
    }
    case "Approved": {
      await trx
        .insertInto("change_request_reviews")
        .values({ change_request_id: id, kind: "approval", user_id: reviewerId(by), text: change.comment ?? null })
        .onConflict((oc) => oc.columns(["change_request_id", "user_id"]).where("kind", "=", "approval").doNothing())
        .execute();
      const { count } = await trx
        .selectFrom("change_request_reviews")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("change_request_id", "=", id)
        .where("kind", "=", "approval")
        .executeTakeFirstOrThrow();
      // Until enough distinct users approve, the request stays in review with the approval noted.
      if (Number(count) < request.min_approvals) next = "In review";
      break;
    }
    case "Rejected": {
      await trx
        .insertInto("change_request_reviews")
        .values({ change_request_id: id, kind: "rejection", user_id: reviewerId(by), text: change.comment ?? null })
        .execute();
      break;
    }
    case "Scheduled": {
      if (!change.scheduledAt) throw new ValidationError("Scheduling needs `scheduledAt`.", [{ path: "scheduledAt", message: "required" }]);
      const { future } = (await sql<{ future: boolean }>`select ${change.scheduledAt}::timestamptz > now() as future`.execute(trx))
        .rows[0] as { future: boolean };
      if (!future)
        throw new ValidationError("`scheduledAt` must be in the future.", [{ path: "scheduledAt", message: "must be in the future" }]);
      Object.assign(updates, { scheduled_at: change.scheduledAt, schedule_status: "pending", schedule_reason: null });
      break;
    }
  }

  if (change.comment && change.state !== "Approved" && change.state !== "Rejected" && by.kind === "user") {
    await trx
      .insertInto("change_request_reviews")
      .values({ change_request_id: id, kind: "comment", user_id: by.userId, text: change.comment })
      .execute();
  }
  if (next === "Applied") return applyChangeRequest(trx, by, request);
  await trx
    .updateTable("change_requests")
    .set({ state: next, updated_at: sql<Date>`now()`, ...updates })
    .where("id", "=", id)
    .execute();
  await appendEvent(trx, by, {
    type: eventType(change.state, next),
    project: projectId,
    environment: env,
    data: {
      id,
      state: next,
      ...(change.comment ? { comment: change.comment } : {}),
      ...(updates.scheduled_at ? { scheduledAt: updates.scheduled_at } : {}),
    },
    preData: { id, state: from },
  });
}

/** The reviewer's user id; `moveRefusal` lets only users approve and reject. */
function reviewerId(by: Principal): number {
  if (by.kind !== "user") throw new Error("Only users review change requests.");
  return by.userId;
}

function eventType(asked: ChangeRequestState, reached: ChangeRequestState): string {
  if (asked === "Approved" && reached !== "Approved") return "change-request-approval-added";
  return `change-request-${reached.toLowerCase().replace(" ", "-")}`;
}
