/**
 * One event of GET /api/admin/console-events as it comes over the wire (docs/console-live.md#the-notice):
 * what one write touched, never its data; `everything` when what changed is not known.
 */
export type ConsoleNotice = { changes: ConsoleChange[] } | { everything: true };

export interface ConsoleChange {
  /** The event's type, e.g. `feature-strategy-add` or `change-request-approved`. */
  type: string;
  project: string | null;
  environment: string | null;
  feature: string | null;
  changeRequestId: number | null;
}
