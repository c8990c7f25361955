import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** True when the password matches; false for a wrong password or an unreadable hash. */
  verify(password: string, hash: string): Promise<boolean>;
  /** A hash that matches no password, for making unknown users cost as much as known ones. */
  dummyHash(): Promise<string>;
  close(): Promise<void>;
}

export interface PasswordHasherOptions {
  /** Worker threads; bcrypt work waits for a free one. */
  workers: number;
  /** bcrypt cost; OWASP asks for 10 or more. */
  cost: number;
  /** The share of its time a worker may hash while the event loop is busy; 1 never holds one back. */
  busyShare?: number;
}

/** Event-loop utilisation above which the process counts as busy serving requests. */
const BUSY_EVENT_LOOP = 0.5;
// Measured on a 2-core machine (issue 8): bcrypt in a worker at nice 10, or even in another
// process at SCHED_IDLE, took half a core or more whenever one was idle, and that alone cut the
// throughput of concurrent GETs by a quarter and nearly doubled their p99. No scheduling priority
// prevents it, so while the event loop is busy a worker rests after each job for as long again:
// logins then took a third of a core and moved the GETs' p99 by 1.25-1.5x instead of 1.6-1.9x.
// When the event loop is not busy, logins run at full speed.
const DEFAULT_BUSY_SHARE = 0.5;

/**
 * How long a worker rests after a job of `jobMs` (wall time), given the event loop's utilisation
 * while it ran, so that it hashes at most `busyShare` of its time while the loop is busy.
 */
export function restAfterJob(jobMs: number, loopUtilisation: number, busyShare: number): number {
  if (loopUtilisation <= BUSY_EVENT_LOOP || busyShare >= 1) return 0;
  return (jobMs * (1 - busyShare)) / Math.max(busyShare, 0.01);
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

/**
 * A fixed pool of worker threads running bcrypt. Hashes are standard `$2b$`/`$2a$`/`$2y$`
 * bcrypt, so hashes copied from an Unleash database verify as they are.
 */
export function createPasswordHasher({ workers, cost, busyShare = DEFAULT_BUSY_SHARE }: PasswordHasherOptions): PasswordHasher {
  const all: Worker[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job & { startedAt: number; loop: ReturnType<typeof performance.eventLoopUtilization> }>();
  const resting = new Set<ReturnType<typeof setTimeout>>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  const release = (worker: Worker, restMs: number) => {
    if (restMs <= 0 || closed) {
      idle.push(worker);
      return;
    }
    const timer = setTimeout(() => {
      resting.delete(timer);
      idle.push(worker);
      dispatch();
    }, restMs);
    // A resting worker must not keep a finished process alive either.
    timer.unref();
    resting.add(timer);
  };

  const dispatch = () => {
    while (idle.length && queue.length) {
      const worker = idle.pop() as Worker;
      const job = queue.shift() as Job;
      busy.set(worker, { ...job, startedAt: performance.now(), loop: performance.eventLoopUtilization() });
      worker.postMessage({ id: job.id, op: job.op, password: job.password, hash: job.hash, cost: job.cost });
    }
  };

  for (let i = 0; i < Math.max(1, workers); i++) {
    const worker = new Worker(new URL("./password-worker.mjs", import.meta.url));
    // Idle workers must not keep a finished process alive.
    worker.unref();
    worker.on("message", (message: { result?: unknown; error?: string }) => {
      const job = busy.get(worker);
      busy.delete(worker);
      let restMs = 0;
      if (job) {
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve(message.result);
        restMs = restAfterJob(performance.now() - job.startedAt, performance.eventLoopUtilization(job.loop).utilization, busyShare);
      }
      release(worker, restMs);
      dispatch();
    });
    worker.on("error", (error) => {
      busy.get(worker)?.reject(error);
      busy.delete(worker);
    });
    all.push(worker);
    idle.push(worker);
  }

  const run = (op: Job["op"], password: string, hash?: string) =>
    new Promise<unknown>((resolve, reject) => {
      if (closed) return reject(new Error("password hasher is closed"));
      queue.push({ id: nextId++, op, password, hash, cost, resolve, reject });
      dispatch();
    });

  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => run("hash", password) as Promise<string>,
    verify: async (password, hash) => {
      try {
        return (await run("verify", password, hash)) === true;
      } catch {
        return false;
      }
    },
    dummyHash: () => (dummy ??= run("hash", `dummy-${Math.random()}-${Date.now()}`) as Promise<string>),
    close: async () => {
      closed = true;
      for (const timer of resting) clearTimeout(timer);
      const closedError = new Error("password hasher is closed");
      for (const job of [...queue.splice(0), ...busy.values()]) job.reject(closedError);
      busy.clear();
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
