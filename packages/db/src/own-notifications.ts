import type pg from "pg";

const backendPid = (client: pg.ClientBase) => (client as unknown as { processID: number }).processID;
const listenSql = (channel: string) => `listen "${channel.replaceAll('"', '""')}"`;

interface OwnNotifications {
  /** Hands this pool's own NOTIFYs on `channel` to `onMessage` until the returned function is called. */
  add(channel: string, onMessage: (payload: string) => void): () => void;
  /** Makes a checked-out connection hear its own NOTIFYs; call before it runs anything. */
  prepare(client: pg.PoolClient): Promise<void>;
  /** Whether a NOTIFY on `channel` came from a connection of this pool that heard it itself. */
  heardByWriter(pid: number, channel: string): boolean;
}

/**
 * The NOTIFYs this pool's own writes send, heard on the connection that wrote: Postgres delivers
 * a session's own notification with its commit, before the commit's reply, so a handler runs
 * before the write's caller goes on (a listening connection of its own would hear it later).
 */
export function ownNotifications(pool: pg.Pool): OwnNotifications {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  // Backend pid -> the channels that connection listens on.
  const listening = new Map<number, Set<string>>();
  pool.on("connect", (client) => {
    const pid = backendPid(client);
    listening.set(pid, new Set());
    client.on("notification", (message) => {
      if (message.processId !== pid) return;
      for (const onMessage of handlers.get(message.channel) ?? []) onMessage(message.payload ?? "");
    });
  });
  pool.on("remove", (client) => listening.delete(backendPid(client)));
  return {
    add(channel, onMessage) {
      let set = handlers.get(channel);
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(onMessage);
      return () => set.delete(onMessage);
    },
    async prepare(client) {
      if (handlers.size === 0) return;
      const channels = listening.get(backendPid(client));
      if (!channels) return;
      for (const channel of handlers.keys()) {
        if (channels.has(channel)) continue;
        await client.query(listenSql(channel));
        channels.add(channel);
      }
    },
    heardByWriter: (pid, channel) => listening.get(pid)?.has(channel) ?? false,
  };
}
