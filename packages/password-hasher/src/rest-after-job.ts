/** Event-loop utilisation above which the process counts as busy serving requests. */
const BUSY_EVENT_LOOP = 0.5;
/** So that one long job (a GC pause, a blocked tick) cannot hold logins back for long. */
const MAX_REST_MS = 1_000;

// bcrypt at any scheduling priority still takes the cores the event loop needs, so while the loop
// is busy a worker hashes half of its time (tooling/bench/README.md has the measurements).
export const DEFAULT_BUSY_SHARE = 0.5;

/**
 * How long a password worker rests after a job that took `jobMs`, given the event loop's
 * utilisation while it ran, so that it hashes at most `busyShare` of its time while the loop is
 * busy; 0 when the loop was not busy or the share is 1.
 */
export function restAfterJob(jobMs: number, loopUtilisation: number, busyShare: number): number {
  if (loopUtilisation <= BUSY_EVENT_LOOP || busyShare >= 1) return 0;
  return Math.min(MAX_REST_MS, (jobMs * (1 - busyShare)) / Math.max(busyShare, 0.01));
}
