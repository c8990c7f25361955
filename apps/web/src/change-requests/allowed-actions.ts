import type { SessionUser } from "../session.ts";
import type { RouterInputs, RouterOutputs } from "../trpc.ts";

export type ChangeRequest = RouterOutputs["changeRequests"]["get"];
export type TargetState = RouterInputs["changeRequests"]["setState"]["state"];

/**
 * The moves the server would accept from this user (docs/flag-model.md#change-request-states): the author submits; Admins and
 * Editors approve and reject others' requests (Admins their own too), and apply and schedule;
 * the author or an Admin cancels.
 */
export function allowedActions(request: ChangeRequest, user: SessionUser): TargetState[] {
  const admin = user.rootRole === 1;
  const editor = admin || user.rootRole === 2;
  const author = request.createdBy.id === user.id;
  const reviewer = editor && (!author || admin);
  const approved = request.approvals?.some((a) => a.createdBy.id === user.id) ?? false;
  const cancel = author || admin ? (["Cancelled"] as const) : [];
  switch (request.state) {
    case "Draft":
      return [...(author ? (["In review"] as const) : []), ...cancel];
    case "In review":
      return [...(reviewer && !approved ? (["Approved"] as const) : []), ...(reviewer ? (["Rejected"] as const) : []), ...cancel];
    case "Approved":
      return [...(editor ? (["Applied", "Scheduled"] as const) : []), ...cancel];
    case "Scheduled":
      return [...(editor ? (["Applied"] as const) : []), ...(reviewer ? (["Rejected"] as const) : []), ...cancel];
    default:
      return [];
  }
}

export const ACTION_LABELS: Record<TargetState, string> = {
  Draft: "Back to draft",
  "In review": "Send for review",
  Approved: "Approve",
  Rejected: "Reject",
  Applied: "Apply now",
  Scheduled: "Schedule",
  Cancelled: "Cancel request",
};
