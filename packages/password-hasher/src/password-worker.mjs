// Runs in a worker thread: bcrypt is CPU-bound for tens of milliseconds a call, which must never
// happen on the event loop that serves requests.
import { setPriority } from "node:os";
import { performance } from "node:perf_hooks";
import { parentPort } from "node:worker_threads";
import { hashSync, verifySync } from "@node-rs/bcrypt";

// On Linux a nice value belongs to one thread, so this lowers only the bcrypt thread; resting does the rest (rest-after-job.ts).
try {
  setPriority(0, 10);
} catch {
  // Not permitted or not supported here; bcrypt still runs off the event loop.
}

parentPort.on("message", ({ id, op, password, hash, cost }) => {
  const started = performance.now();
  try {
    const result = op === "hash" ? hashSync(password, cost) : verifySync(password, hash);
    parentPort.postMessage({ id, result, ms: performance.now() - started });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error), ms: performance.now() - started });
  }
});
