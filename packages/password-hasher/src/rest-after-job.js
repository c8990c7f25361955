"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_BUSY_SHARE = void 0;
exports.restAfterJob = restAfterJob;
/** Event-loop utilisation above which the process counts as busy serving requests. */
var BUSY_EVENT_LOOP = 0.5;
/** So that one long job (a GC pause, a blocked tick) cannot hold logins back for long. */
var MAX_REST_MS = 1000;
// Measured on a 2-core machine (issue 8): bcrypt in a worker at nice 10, or even in another
// process at SCHED_IDLE, took half a core or more whenever one was idle, and that alone cut the
// throughput of concurrent GETs by a quarter and nearly doubled their p99. No scheduling priority
// prevents it, so while the event loop is busy a worker rests after each job for as long again:
// logins then took a third of a core and moved the GETs' p99 by 1.25-1.5x instead of 1.6-1.9x.
// When the event loop is not busy, logins run at full speed.
exports.DEFAULT_BUSY_SHARE = 0.5;
/**
 * How long a password worker rests after a job that took `jobMs`, given the event loop's
 * utilisation while it ran, so that it hashes at most `busyShare` of its time while the loop is
 * busy; 0 when the loop was not busy or the share is 1.
 */
function restAfterJob(jobMs, loopUtilisation, busyShare) {
    if (loopUtilisation <= BUSY_EVENT_LOOP || busyShare >= 1)
        return 0;
    return Math.min(MAX_REST_MS, (jobMs * (1 - busyShare)) / Math.max(busyShare, 0.01));
}
