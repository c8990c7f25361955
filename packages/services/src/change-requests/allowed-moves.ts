import { isAdmin, type Principal, principalHasPermission } from "../auth/principal.ts";
import { type DomainError, NoAccessError, ValidationError } from "../errors/domain-error.ts";
import type { ChangeRequestState } from "./change-request.ts";

/** From each state, the states it may move to (docs/flag-model.md#change-request-states). */
const TRANSITIONS: Record<ChangeRequestState, ChangeRequestState[]> = {
  Draft: ["In review", "Cancelled"],
  "In review": ["Approved", "Rejected", "Cancelled"],
  Approved: ["Applied", "Scheduled", "Cancelled"],
  Scheduled: ["Applied", "Rejected", "Cancelled"],
  Applied: [],
  Cancelled: [],
  Rejected: [],
};

/** What the rules of a move read of a change request. */
export interface MoveSubject {
  id: number;
  state: ChangeRequestState;
  environment: string;
  authorId: number;
}

/**
 * docs/flag-model.md#change-request-states: why `by` may not move `request` to `to`, or null when they may. The move command
 * throws this error, and the views list the targets it lets through, so the two cannot disagree.
 * What the move itself carries (a `scheduledAt`, the changes to review) is checked by the command.
 */
export function moveRefusal(by: Principal, request: MoveSubject, to: ChangeRequestState): DomainError | null {
  const { id, state: from, environment } = request;
  const allowed = TRANSITIONS[from];
  if (!allowed.includes(to)) {
    const options = allowed.length ? allowed.map((s) => `"${s}"`).join(", ") : "nothing (it is final)";
    return new ValidationError(`Cannot move change request ${id} from "${from}" to "${to}"; from "${from}" it can go to ${options}.`, [
      { path: "state", message: `not allowed from "${from}"` },
    ]);
  }
  const isAuthor = by.kind === "user" && by.userId === request.authorId;
  const lacks = (permission: "APPROVE_CHANGE_REQUEST" | "APPLY_CHANGE_REQUEST") =>
    principalHasPermission(by, permission) ? null : NoAccessError.forPermission(permission, environment);
  switch (to) {
    case "Draft":
      return null;
    case "In review":
      return isAuthor ? null : new NoAccessError("Only the author can submit a change request for review.");
    case "Approved":
      return (
        lacks("APPROVE_CHANGE_REQUEST") ??
        (by.kind !== "user" ? new NoAccessError("Approvals are given by users; log in or use a personal access token.") : null) ??
        (isAuthor && !isAdmin(by) ? new NoAccessError("You cannot approve your own change request.") : null)
      );
    case "Rejected":
      return (
        lacks("APPROVE_CHANGE_REQUEST") ??
        (by.kind !== "user" ? new NoAccessError("Rejections are given by users; log in or use a personal access token.") : null) ??
        (isAuthor && !isAdmin(by) ? new NoAccessError("You cannot reject your own change request; cancel it instead.") : null)
      );
    case "Cancelled":
      return isAuthor || isAdmin(by) ? null : new NoAccessError("Only the author or an Admin can cancel a change request.");
    case "Scheduled":
    case "Applied":
      return lacks("APPLY_CHANGE_REQUEST");
  }
}

/** The states `by` may move `request` to now, in the order of TRANSITIONS; what a view offers its reader. */
export function allowedMoves(by: Principal, request: MoveSubject): ChangeRequestState[] {
  return TRANSITIONS[request.state].filter((to) => moveRefusal(by, request, to) === null);
}
