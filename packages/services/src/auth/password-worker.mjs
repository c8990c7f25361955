// Runs in a worker thread: bcrypt is CPU-bound for tens of milliseconds a call, which must never
// happen on the event loop that serves requests.
import { parentPort } from "node:worker_threads";
import { hashSync, verifySync } from "@node-rs/bcrypt";

parentPort.on("message", ({ id, op, password, hash, cost }) => {
  try {
    const result = op === "hash" ? hashSync(password, cost) : verifySync(password, hash);
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
