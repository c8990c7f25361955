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
export function createPasswordHasher({ workers, cost }: PasswordHasherOptions): PasswordHasher {
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  const dispatch = () => {
    while (idle.length && queue.length) {
      const worker = idle.pop() as Worker;
      const job = queue.shift() as Job;
      busy.set(worker, job);
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
      idle.push(worker);
      if (job) {
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve(message.result);
      }
      dispatch();
    });
    worker.on("error", (error) => {
      busy.get(worker)?.reject(error);
      busy.delete(worker);
    });
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
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
  };
}
