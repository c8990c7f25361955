import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { type PasswordHasher, ServiceUnavailable } from "@vexil/services";
import { DEFAULT_BUSY_SHARE, restAfterJob } from "./rest-after-job.ts";

export interface PasswordHasherOptions {
  /** Worker threads; bcrypt work waits for a free one. */
  workers: number;
  /** bcrypt cost; OWASP asks for 10 or more. */
  cost: number;
  /** The share of its time a worker may hash while the event loop is busy; 1 never holds one back. */
  busyShare?: number;
}

interface Job {
  id: number;
  op: "hash" | "verify";
  password: string;
  hash?: string;
  cost: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** What a worker reports of a job. */
interface Reply {
  result?: unknown;
  error?: string;
  /** How long bcrypt itself took, in the worker. */
  ms: number;
}

/** bcrypt refused its input (not a bcrypt hash, a cost it does not know): for verify, no match. */
class HashRefused extends Error {}

const closedError = () => new ServiceUnavailable("The server is stopping; try again shortly.");

/**
 * A fixed pool of worker threads running bcrypt. Hashes are standard `$2b$`/`$2a$`/`$2y$`
 * bcrypt, so hashes copied from an Unleash database verify as they are.
 */
export function createPasswordHasher({ workers, cost, busyShare = DEFAULT_BUSY_SHARE }: PasswordHasherOptions): PasswordHasher {
  const all = new Set<Worker>();
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job & { loop: ReturnType<typeof performance.eventLoopUtilization> }>();
  const resting = new Set<ReturnType<typeof setTimeout>>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;
  // Set when a worker failed before it ever answered: starting another would fail alike.
  let broken: Error | undefined;

  const dispatch = () => {
    while (idle.length && queue.length) {
      const worker = idle.pop() as Worker;
      const job = queue.shift() as Job;
      busy.set(worker, { ...job, loop: performance.eventLoopUtilization() });
      // A job in hand keeps the process alive until its caller has the answer.
      worker.ref();
      worker.postMessage({ id: job.id, op: job.op, password: job.password, hash: job.hash, cost: job.cost });
    }
  };

  const release = (worker: Worker, restMs: number) => {
    // Idle workers must not keep a finished process alive.
    worker.unref();
    if (restMs <= 0) {
      idle.push(worker);
      return;
    }
    const timer = setTimeout(() => {
      resting.delete(timer);
      // A worker that died while resting has been replaced already; it must not take jobs.
      if (all.has(worker)) idle.push(worker);
      dispatch();
    }, restMs);
    resting.add(timer);
  };

  const start = () => {
    const worker = new Worker(new URL("./password-worker.mjs", import.meta.url));
    worker.unref();
    let answered = false;
    worker.on("message", (reply: Reply) => {
      answered = true;
      const job = busy.get(worker);
      busy.delete(worker);
      if (!job) return;
      if (reply.error !== undefined) job.reject(new HashRefused(reply.error));
      else job.resolve(reply.result);
      release(worker, restAfterJob(reply.ms, performance.eventLoopUtilization(job.loop).utilization, busyShare));
      dispatch();
    });
    // A worker that dies (out of memory, say) fails only its own job; another takes its place.
    worker.on("error", (error) => {
      busy.get(worker)?.reject(error);
      busy.delete(worker);
      all.delete(worker);
      const at = idle.indexOf(worker);
      if (at !== -1) idle.splice(at, 1);
      if (closed) return;
      if (answered) {
        idle.push(start());
        dispatch();
        return;
      }
      broken = error;
      if (all.size === 0) for (const job of queue.splice(0)) job.reject(error);
    });
    all.add(worker);
    return worker;
  };

  for (let i = 0; i < Math.max(1, workers); i++) idle.push(start());

  const run = (op: Job["op"], password: string, hash?: string) =>
    new Promise<unknown>((resolve, reject) => {
      if (closed) return reject(closedError());
      if (broken && all.size === 0) return reject(broken);
      queue.push({ id: nextId++, op, password, hash, cost, resolve, reject });
      dispatch();
    });

  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => run("hash", password) as Promise<string>,
    verify: async (password, hash) => {
      try {
        return (await run("verify", password, hash)) === true;
      } catch (error) {
        // Only bcrypt's own refusal is a verdict; a stopping server or a dead worker is not one,
        // and must not count as a wrong password.
        if (error instanceof HashRefused) return false;
        throw error;
      }
    },
    dummyHash: () => (dummy ??= run("hash", `dummy-${Math.random()}-${Date.now()}`) as Promise<string>),
    close: async () => {
      closed = true;
      for (const timer of resting) clearTimeout(timer);
      resting.clear();
      for (const job of [...queue.splice(0), ...busy.values()]) job.reject(closedError());
      busy.clear();
      await Promise.all([...all].map((w) => w.terminate()));
    },
  };
}
