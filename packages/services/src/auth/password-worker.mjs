// Runs in a worker thread: bcrypt is CPU-bound for tens of milliseconds a call, which must never
// happen on the event loop that serves requests.
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { hashSync, verifySync } from "@node-rs/bcrypt";

// On Linux a nice value belongs to one thread: this lowers only the bcrypt thread, so that under a
// login storm the event loop and Postgres get the CPU first and other requests stay fast.
try {
  setPriority(0, 10);
} catch {
  // Not permitted or not supported here; bcrypt still runs off the event loop.
}

parentPort.on("message", ({ id, op, password, hash, cost }) => {
  try {
    const result = op === "hash" ? hashSync(password, cost) : verifySync(password, hash);
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
