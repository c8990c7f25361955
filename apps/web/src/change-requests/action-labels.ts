import type { RouterInputs, RouterOutputs } from "../trpc.ts";

export type ChangeRequest = RouterOutputs["changeRequests"]["get"];
export type TargetState = RouterInputs["changeRequests"]["setState"]["state"];

/** The button for each move the server lists in a change request's `actions`. */
export const ACTION_LABELS: Record<TargetState, string> = {
  Draft: "Back to draft",
  "In review": "Send for review",
  Approved: "Approve",
  Rejected: "Reject",
  Applied: "Apply now",
  Scheduled: "Schedule",
  Cancelled: "Cancel request",
};
