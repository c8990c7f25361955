import { isAdmin, type Principal, principalHasPermission, projectRolesDeciding } from "../auth/principal.ts";
import { type DomainError, NoAccessError, ValidationError } from "../errors/domain-error.ts";
import type { ChangeRequestState } from "./change-request.ts";

/** From each state, the states it may move to (docs/change-requests.md#change-request-states). */
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
  /** The project it belongs to: project roles decide its moves there (docs/project-roles.md#change-requests). */
  project: string;
  authorId: number;
}

/** Why a move is refused, as plain data: views ask for every request of a list, and an Error would capture a stack each time. */
type Refusal =
  | { kind: "transition"; allowed: ChangeRequestState[] }
  | { kind: "permission"; permission: "APPROVE_CHANGE_REQUEST" | "APPLY_CHANGE_REQUEST" }
  | { kind: "rule"; message: string };

function refusalOf(by: Principal, request: MoveSubject, to: ChangeRequestState): Refusal | null {
  const allowed = TRANSITIONS[request.state];
  if (!allowed.includes(to)) return { kind: "transition", allowed };
  const isAuthor = by.kind === "user" && by.userId === request.authorId;
  const lacks = (permission: "APPROVE_CHANGE_REQUEST" | "APPLY_CHANGE_REQUEST"): Refusal | null =>
    principalHasPermission(by, permission, request.project) ? null : { kind: "permission", permission };
  const rule = (refused: boolean, message: string): Refusal | null => (refused ? { kind: "rule", message } : null);
  switch (to) {
    case "Draft":
      return null;
    case "In review":
      return rule(!isAuthor, "Only the author can submit a change request for review.");
    case "Approved":
      return (
        lacks("APPROVE_CHANGE_REQUEST") ??
        rule(by.kind !== "user", "Approvals are given by users; log in or use a personal access token.") ??
        rule(isAuthor && !isAdmin(by), "You cannot approve your own change request.")
      );
    case "Rejected":
      return (
        lacks("APPROVE_CHANGE_REQUEST") ??
        rule(by.kind !== "user", "Rejections are given by users; log in or use a personal access token.") ??
        rule(isAuthor && !isAdmin(by), "You cannot reject your own change request; cancel it instead.")
      );
    case "Cancelled":
      return rule(!isAuthor && !isAdmin(by), "Only the author or an Admin can cancel a change request.");
    case "Scheduled":
    case "Applied":
      return lacks("APPLY_CHANGE_REQUEST");
  }
}

/**
 * docs/change-requests.md#change-request-states: why `by` may not move `request` to `to`, or null when they may. The move command
 * throws this error, and the views list the targets it lets through, so the two cannot disagree.
 * What the move itself carries (a `scheduledAt`, the changes to review) is checked by the command.
 */
export function moveRefusal(by: Principal, request: MoveSubject, to: ChangeRequestState): DomainError | null {
  const refusal = refusalOf(by, request, to);
  if (!refusal) return null;
  const { id, state: from, environment, project } = request;
  switch (refusal.kind) {
    case "transition": {
      const options = refusal.allowed.length ? refusal.allowed.map((s) => `"${s}"`).join(", ") : "nothing (it is final)";
      return new ValidationError(`Cannot move change request ${id} from "${from}" to "${to}"; from "${from}" it can go to ${options}.`, [
        { path: "state", message: `not allowed from "${from}"` },
      ]);
    }
    case "permission":
      // The project is named where the reader's project roles decided (docs/project-roles.md#the-403).
      return NoAccessError.forPermission(
        refusal.permission,
        environment,
        undefined,
        projectRolesDeciding(by, refusal.permission, project) ? project : undefined,
      );
    case "rule":
      return new NoAccessError(refusal.message);
  }
}

/** The states `by` may move `request` to now, in the order of TRANSITIONS; what a view offers its reader. */
export function allowedMoves(by: Principal, request: MoveSubject): ChangeRequestState[] {
  return TRANSITIONS[request.state].filter((to) => refusalOf(by, request, to) === null);
}
