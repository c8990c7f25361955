/** The channel the database notifies, at commit, of every statement that appends to the event log. */
export const CONSOLE_EVENTS_CHANNEL = "vexil_console_events";

/** What one appended event touched, as an open console needs it to know what to read again: never its data. */
interface ConsoleChange {
  /** The event's type, e.g. `feature-strategy-add` or `change-request-approved`. */
  type: string;
  project: string | null;
  environment: string | null;
  feature: string | null;
  /** The change request a `change-request-*` event is about. */
  changeRequestId: number | null;
}

/**
 * What an open console is told (docs/console-live.md#the-notice): the changes of one committed
 * statement, or that anything may have changed (a large write, or changes that went unheard while
 * the database connection was lost), which a console answers by reading everything it shows again.
 */
export type ConsoleNotice = { changes: ConsoleChange[] } | { everything: true };

export const EVERYTHING: ConsoleNotice = { everything: true };

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

function changeFrom(raw: unknown): ConsoleChange | null {
  if (!raw || typeof raw !== "object") return null;
  const row = raw as Record<string, unknown>;
  const type = text(row.type);
  if (!type) return null;
  const id = Number(row.changeRequestId);
  return {
    type,
    project: text(row.project),
    environment: text(row.environment),
    feature: text(row.feature),
    changeRequestId: row.changeRequestId != null && Number.isSafeInteger(id) ? id : null,
  };
}

/** A notification's payload as a notice; one it cannot read (sent by hand, say) counts as "everything". */
export function consoleNoticeFrom(payload: string): ConsoleNotice {
  try {
    const parsed = JSON.parse(payload) as { changes?: unknown; everything?: unknown };
    if (parsed.everything === true || !Array.isArray(parsed.changes)) return EVERYTHING;
    const changes = parsed.changes.map(changeFrom);
    if (changes.some((change) => change === null)) return EVERYTHING;
    return { changes: changes as ConsoleChange[] };
  } catch {
    return EVERYTHING;
  }
}
