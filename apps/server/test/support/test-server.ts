import type { AddressInfo } from "node:net";
import { createTestDb, type TestDb } from "@vexil/db/testing";
import pino from "pino";
import { request } from "undici";
import { createApp, type App } from "../../src/app.ts";
import { bootstrap } from "../../src/bootstrap.ts";
import { type Config, loadConfig } from "../../src/config.ts";

export interface TestServer {
  url: string;
  app: App;
  db: TestDb;
  config: Config;
  /** Every log line the server wrote, parsed. */
  logs: Record<string, unknown>[];
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

export interface CallOptions {
  body?: unknown;
  /** A raw body, sent as given. */
  raw?: string;
  headers?: Record<string, string>;
  /** Fails the call, naming it, when no whole answer came in this long (undici's own default is 300 s a stage). */
  timeoutMs?: number;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
}

/** A stream of server-sent events never ends by itself: its text up to the first event, and the stream is dropped. */
export async function firstEvent(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  let text = "";
  for await (const chunk of body) {
    text += chunk.toString("utf8");
    if (text.includes("\n\n")) break;
  }
  body.destroy();
  return text;
}

/** One request to any server: a JSON body is sent as JSON, and the reply's JSON is parsed (its text, if it is not JSON). */
export async function callUrl(url: string, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const signal = opts.timeoutMs === undefined ? undefined : AbortSignal.timeout(opts.timeoutMs);
  let res: Awaited<ReturnType<typeof request>>;
  let text: string;
  try {
    res = await request(url + path, { method: method as "GET", headers, body, signal });
    text = String(res.headers["content-type"]).startsWith("text/event-stream") ? await firstEvent(res.body) : await res.body.text();
  } catch (error) {
    if (signal?.aborted) throw new Error(`${method} ${url}${path}: no answer within ${opts.timeoutMs} ms`);
    throw error;
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.statusCode, headers: res.headers, json };
}

/** The real server, on port 0, on this test file's own database. */
export async function startTestServer(env: Record<string, string> = {}, options: { db?: TestDb } = {}): Promise<TestServer> {
  const db = options.db ?? (await createTestDb());
  const config = loadConfig({
    LOG_LEVEL: "info",
    SHUTDOWN_GRACE_MS: "2000",
    SESSION_SECRET: "test-secret-of-at-least-32-characters!!",
    // Nothing deletes rows behind a test's back; housekeeping.test.ts runs it by hand.
    HOUSEKEEPING_INTERVAL_MS: "0",
    // The tests' receivers listen on 127.0.0.1; webhooks.test.ts starts a server without this too.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    ...env,
  });
  const logs: Record<string, unknown>[] = [];
  const log = pino({ level: config.LOG_LEVEL, base: undefined }, { write: (line: string) => logs.push(JSON.parse(line)) });
  const app = createApp({ config, db, log });
  await bootstrap(app, config);
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const call = (method: string, path: string, opts?: CallOptions) => callUrl(url, method, path, opts);
  return { url, app, db, config, logs, call, close: () => app.close() };
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
