import type pg from "pg";

const backendPid = (client: pg.ClientBase) => (client as unknown as { processID: number }).processID;
const listenSql = (channel: string) => `listen "${channel.replaceAll('"', '""')}"`;

interface OwnNotifications {
  /** Hands this pool's own NOTIFYs on `channel` to `onMessage`. */
  add(channel: string, onMessage: (payload: string) => void): void;
  /** Makes a checked-out connection hear its own NOTIFYs; call before it runs anything. */
  prepare(client: pg.PoolClient): Promise<void>;
  /** Whether a NOTIFY came from one of this pool's connections. */
  isOwn(pid: number): boolean;
}

/**
 * The NOTIFYs this pool's own writes send, heard on the connection that wrote: Postgres delivers
 * a session's own notification with its commit, before the commit's reply, so a handler runs
 * before the write's caller goes on (a listening connection of its own would hear it later).
 */
export function ownNotifications(pool: pg.Pool): OwnNotifications {
  const handlers = new Map<string, ((payload: string) => void)[]>();
  const pids = new Set<number>();
  const heard = new WeakMap<pg.PoolClient, Set<string>>();
  pool.on("connect", (client) => {
    const pid = backendPid(client);
    pids.add(pid);
    client.on("notification", (message) => {
      if (message.processId !== pid) return;
      for (const onMessage of handlers.get(message.channel) ?? []) onMessage(message.payload ?? "");
    });
  });
  pool.on("remove", (client) => pids.delete(backendPid(client)));
  return {
    add(channel, onMessage) {
      handlers.set(channel, [...(handlers.get(channel) ?? []), onMessage]);
    },
    async prepare(client) {
      if (handlers.size === 0) return;
      let channels = heard.get(client);
      if (!channels) heard.set(client, (channels = new Set()));
      for (const channel of handlers.keys()) {
        if (channels.has(channel)) continue;
        await client.query(listenSql(channel));
        channels.add(channel);
      }
    },
    isOwn: (pid) => pids.has(pid),
  };
}
