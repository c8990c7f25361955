import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

export interface ListenHandlers {
  onMessage(payload: string): void;
  /** Listening (again): from now on no message is missed. */
  onListening(): void;
  /** The connection is gone; messages sent until the next onListening are lost. */
  onLost(error?: unknown): void;
}

export interface Listener {
  close(): Promise<void>;
}

const MAX_RETRY_MS = 5_000;

/**
 * LISTEN on a connection of its own, outside the pool, reconnecting with a doubling delay when it
 * is lost. TCP keep-alive makes a silently dead connection surface as an error. Messages for which
 * `heardElsewhere` is true (from the pool's own connections, handled there) are skipped.
 */
export function listenOnPostgres(
  connectionString: string,
  channel: string,
  handlers: ListenHandlers,
  heardElsewhere: (pid: number) => boolean = () => false,
): Listener {
  let closed = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = 100;

  const connect = () => {
    const client = new pg.Client({
      connectionString,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 5_000,
    });
    current = client;
    let gone = false;
    const lose = (error?: unknown) => {
      if (gone) return;
      gone = true;
      handlers.onLost(error);
      client.end().catch(() => {});
      if (closed) return;
      retry = setTimeout(connect, delay);
      delay = Math.min(delay * 2, MAX_RETRY_MS);
    };
    client.on("error", lose);
    client.on("end", () => lose());
    client.on("notification", (message) => {
      if (message.channel === channel && !heardElsewhere(message.processId)) handlers.onMessage(message.payload ?? "");
    });
    client
      .connect()
      .then(() => client.query(`listen "${channel.replaceAll('"', '""')}"`))
      .then(() => {
        if (gone || closed) return;
        delay = 100;
        handlers.onListening();
      })
      .catch(lose);
  };
  connect();

  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await current?.end().catch(() => {});
    },
  };
}

/**
 * The embedded database runs in this process, so its notifications never get lost, and it hands
 * them over while the notifying query's reply is read, before that query returns.
 */
export function listenOnPglite(opened: Promise<PGlite>, channel: string, handlers: ListenHandlers): Listener {
  const listening = opened.then(async (pglite) => {
    const stop = await pglite.listen(channel, (payload) => handlers.onMessage(payload));
    handlers.onListening();
    return { pglite, stop };
  });
  return {
    close: async () => {
      const { pglite, stop } = await listening;
      if (pglite.closed) return;
      await stop().catch(() => {});
    },
  };
}
