import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on a free port: records every request, answers what `answer` says (200 by default). */
export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** How many distinct idempotency keys arrived. */
  keys(): Set<string>;
  /** The status to answer from now on. */
  answer: number;
  /** While true, requests are read and never answered (until the sender gives up). */
  hang: boolean;
  /** Stops listening: connections are refused until `reopen`. */
  refuse(): Promise<void>;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  let server: Server;
  let port = 0;
  const receiver: WebhookReceiver = {
    url: "",
    received,
    answer: 200,
    hang: false,
    keys: () => new Set(received.map((r) => String(r.headers["idempotency-key"]))),
    refuse: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    reopen: () => listen(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", () => {
          if (receiver.hang) return;
          const status = receiver.answer;
          // Only what was answered 2xx counts as arrived; the rest the sender must try again.
          if (status >= 200 && status < 300) received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
          res.writeHead(status).end();
        });
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        port = (server.address() as AddressInfo).port;
        receiver.url = `http://127.0.0.1:${port}/hook`;
        resolve();
      });
    });
  await listen();
  return receiver;
}
