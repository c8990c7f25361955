import type { ClientScope, EvaluationDependencies, FrontendContext } from "@vexil/services";

/** What a repeated poll's raw request stood for: its context, and the ETag it had over one snapshot of one scope. */
export interface RememberedPoll {
  context: FrontendContext;
  /** The snapshot's dependencies (its identity: a new snapshot has new ones), the scope, and the ETag over them. */
  dependencies: EvaluationDependencies;
  environment: string;
  projects: readonly string[];
  etag: string | undefined;
  /** The answer's bytes, for a route that answers 200s only (OFREP's single flag): kept when the ETag says they cannot differ. */
  answer?: Buffer;
}

// Raw requests kept at once, and the longest kept: past the first the memo starts over, and a
// longer request is read every time (a browser's poll is a few hundred characters).
const MAX_POLLS = 4_096;
const MAX_KEY = 1_024;

/**
 * Repeated polls by their raw request (docs/sdk-protocols.md#poll-etags): a browser polls with the
 * same query (or body) from the same address until something changes, and its context is a
 * function of those alone, so it is read once; its ETag is reused while the snapshot and the
 * scope are the ones it was made over and no date constraint makes it depend on the time.
 */
export function createPollMemo() {
  const polls = new Map<string, RememberedPoll>();
  return {
    /** The key of a raw request, or undefined when it is too long to keep. */
    keyOf: (address: string, raw: string) => (raw.length > MAX_KEY ? undefined : `${address}\u0000${raw}`),
    get: (key: string | undefined) => (key === undefined ? undefined : polls.get(key)),
    set(key: string | undefined, poll: RememberedPoll) {
      if (key === undefined) return;
      if (polls.size >= MAX_POLLS) polls.clear();
      polls.set(key, poll);
    },
  };
}

/** Whether a remembered poll's ETag (and answer) still holds: the same snapshot and scope, and no date constraint in it. */
export function stillHolds(
  seen: RememberedPoll | undefined,
  dependencies: EvaluationDependencies,
  scope: ClientScope,
): seen is RememberedPoll {
  return (
    seen !== undefined &&
    seen.dependencies === dependencies &&
    seen.environment === scope.environment &&
    seen.projects === scope.projects &&
    dependencies.dateBoundaries.length === 0
  );
}
