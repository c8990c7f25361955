import type { Database } from "@vexil/db";
import { type Kysely, sql, type Transaction } from "kysely";
import type { Permission } from "../auth/permissions.ts";
import { isAdmin, type Principal, principalHasPermission } from "../auth/principal.ts";
import { NoAccessError, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { applyChangeRequest } from "./apply-change-request.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import type { ChangeRequestState, ChangeRequestView } from "./change-request.ts";
import { changeRequestView } from "./get-change-request.ts";
import { requireChangeRequest } from "./require-change-request.ts";

/** Contract 3.4: from each state, the states it may move to. */
export const TRANSITIONS: Record<ChangeRequestState, ChangeRequestState[]> = {
  Draft: ["In review", "Cancelled"],
  "In review": ["Approved", "Rejected", "Cancelled"],
  Approved: ["Applied", "Scheduled", "Cancelled"],
  Scheduled: ["Applied", "Rejected", "Cancelled"],
  Applied: [],
  Cancelled: [],
  Rejected: [],
};

export interface StateChange {
  state: ChangeRequestState;
  comment?: string | undefined;
  scheduledAt?: Date | undefined;
}

function requirePermission(by: Principal, permission: Permission, environment: string): void {
  if (!principalHasPermission(by, permission)) throw NoAccessError.forPermission(permission, environment);
}

/**
 * Moves a change request to another state under the rules of contract 3.4 and returns it;
 * applying carries the changes out in the same transaction.
 */
export async function moveChangeRequest(
  db: Kysely<Database>,
  by: Principal,
  projectId: string,
  id: number,
  change: StateChange,
): Promise<ChangeRequestView> {
  await inTransaction(db, (trx) => storeMove(trx, by, projectId, id, change));
  return changeRequestView(db, id);
}

async function storeMove(trx: Transaction<Database>, by: Principal, projectId: string, id: number, change: StateChange): Promise<void> {
  // The row is locked: two approvers, or an approver and the scheduler, must not both act on one state.
  const request = await requireChangeRequest(trx, projectId, id, { forUpdate: true });
  const from = request.state as ChangeRequestState;
  const allowed = TRANSITIONS[from];
  if (!allowed.includes(change.state)) {
    const options = allowed.length ? allowed.map((s) => `"${s}"`).join(", ") : "nothing (it is final)";
    throw new ValidationError(
      `Cannot move change request ${id} from "${from}" to "${change.state}"; from "${from}" it can go to ${options}.`,
      [{ path: "state", message: `not allowed from "${from}"` }],
    );
  }
  const env = request.environment_name;
  const isAuthor = by.kind === "user" && by.userId === request.created_by_user_id;
  let next: ChangeRequestState = change.state;
  const updates: Partial<{ scheduled_at: Date | null; schedule_status: string | null; schedule_reason: string | null }> = {};

  switch (change.state) {
    case "In review": {
      if (!isAuthor) throw new NoAccessError("Only the author can submit a change request for review.");
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
      requirePermission(by, "APPROVE_CHANGE_REQUEST", env);
      if (by.kind !== "user") throw new NoAccessError("Approvals are given by users; log in or use a personal access token.");
      if (isAuthor && !isAdmin(by)) throw new NoAccessError("You cannot approve your own change request.");
      await trx
        .insertInto("change_request_reviews")
        .values({ change_request_id: id, kind: "approval", user_id: by.userId, text: change.comment ?? null })
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
      requirePermission(by, "APPROVE_CHANGE_REQUEST", env);
      if (by.kind !== "user") throw new NoAccessError("Rejections are given by users; log in or use a personal access token.");
      if (isAuthor && !isAdmin(by)) throw new NoAccessError("You cannot reject your own change request; cancel it instead.");
      await trx
        .insertInto("change_request_reviews")
        .values({ change_request_id: id, kind: "rejection", user_id: by.userId, text: change.comment ?? null })
        .execute();
      break;
    }
    case "Cancelled":
      if (!isAuthor && !isAdmin(by)) throw new NoAccessError("Only the author or an Admin can cancel a change request.");
      break;
    case "Scheduled": {
      requirePermission(by, "APPLY_CHANGE_REQUEST", env);
      if (!change.scheduledAt) throw new ValidationError("Scheduling needs `scheduledAt`.", [{ path: "scheduledAt", message: "required" }]);
      const { future } = (await sql<{ future: boolean }>`select ${change.scheduledAt}::timestamptz > now() as future`.execute(trx))
        .rows[0] as { future: boolean };
      if (!future)
        throw new ValidationError("`scheduledAt` must be in the future.", [{ path: "scheduledAt", message: "must be in the future" }]);
      Object.assign(updates, { scheduled_at: change.scheduledAt, schedule_status: "pending", schedule_reason: null });
      break;
    }
    case "Applied":
      requirePermission(by, "APPLY_CHANGE_REQUEST", env);
      break;
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

function eventType(asked: ChangeRequestState, reached: ChangeRequestState): string {
  if (asked === "Approved" && reached !== "Approved") return "change-request-approval-added";
  return `change-request-${reached.toLowerCase().replace(" ", "-")}`;
}
