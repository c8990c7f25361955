import { type ConsoleNotice, consoleNoticeFrom, EVERYTHING } from "./console-notice.ts";

/**
 * The notices of this instance's open consoles, fed by the console-events notifications of every
 * instance (docs/console-live.md#across-instances): each is handed to every subscriber as it comes.
 */
export interface ConsoleEventHub {
  /** Calls `listener` with every later notice, until the returned function is called. */
  subscribe(listener: (notice: ConsoleNotice) => void): () => void;
  /** A notification's payload came in. */
  heard(payload: string): void;
  /** The connection that hears notifications is lost: notices may be missed until resume(). */
  suspend(): void;
  /** Listening (again): after a loss, what was missed is unknown, so consoles read everything again. */
  resume(): void;
  /** Consoles subscribed, for monitoring. */
  readonly subscribers: number;
}

export function createConsoleEventHub(): ConsoleEventHub {
  const listeners = new Set<(notice: ConsoleNotice) => void>();
  let lost = false;
  const send = (notice: ConsoleNotice) => {
    for (const listener of listeners) listener(notice);
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    heard: (payload) => send(consoleNoticeFrom(payload)),
    suspend() {
      lost = true;
    },
    resume() {
      if (lost) send(EVERYTHING);
      lost = false;
    },
    get subscribers() {
      return listeners.size;
    },
  };
}
