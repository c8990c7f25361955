import { once } from "node:events";
import { type AddressInfo, createServer, Socket } from "node:net";

/**
 * A TCP relay between the server and Postgres that a test can cut and restore, to play a database
 * outage without touching the real Postgres that others share.
 */
export interface TcpRelay {
  /** The target URL with its port pointed at the relay. */
  url: string;
  /** Refuses new connections and destroys open ones, as a stopped database would. */
  cut(): Promise<void>;
  /** Accepts and forwards again, on the same port. */
  restore(): Promise<void>;
  /** Connections destroyed by cut() so far. */
  readonly destroyed: number;
  close(): Promise<void>;
}

export async function startTcpRelay(targetUrl: string): Promise<TcpRelay> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  const clients = new Set<Socket>();
  let destroyed = 0;
  const forward = (client: Socket) => {
    const upstream = new Socket();
    upstream.connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream).pipe(client);
    clients.add(client);
    client.on("close", () => clients.delete(client));
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => sockets.delete(s));
    }
  };
  let server = createServer(forward);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);

  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    destroyed += clients.size;
    for (const s of sockets) s.destroy();
    await closed;
  };
  return {
    url: url.toString(),
    cut,
    async restore() {
      server = createServer(forward);
      server.listen(port, "127.0.0.1");
      await once(server, "listening");
    },
    get destroyed() {
      return destroyed;
    },
    close: async () => {
      if (server.listening) await cut();
    },
  };
}
