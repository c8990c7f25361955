import type { Logger } from "@vexil/api";

export interface PeriodicTask {
  /** Runs one pass now; passes never overlap within an instance. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs `pass` at start and every `intervalMs` (0: only when ticked by hand). A failed pass is
 * logged and retried at the next interval; the process never dies of it.
 */
export function startPeriodicTask(log: Logger, what: string, intervalMs: number, pass: () => Promise<void>): PeriodicTask {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= pass()
      .catch((error) => log.warn({ err: error }, `${what} failed; will retry`))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = intervalMs > 0 ? setInterval(tick, intervalMs) : undefined;
  timer?.unref();
  if (intervalMs > 0) void tick();
  return {
    tick,
    stop: async () => {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
