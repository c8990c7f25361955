import { randomBytes, randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import {
  type ApiDeps,
  appRouter,
  authenticate,
  type Context,
  createOpenApiDocument,
  createRestBridge,
  createClientStreams,
  createFrontendHandler,
  createTrpcHandler,
  handleClientDelta,
  handleClientFeatures,
  handleClientStreaming,
  type Logger,
  sendFailure,
  sendJson,
  toHttpFailure,
} from "@vexil/api";
import { createAuthCache, type Db } from "@vexil/db";
import { createPasswordHasher } from "@vexil/password-hasher";
import {
  createClientFeatureHubs,
  createClientFeatureSnapshots,
  createClientMetricsBuffer,
  DEFAULT_LOGIN_LIMITS,
  DEFAULT_SESSION_POLICY,
  FLAG_CHANGES_CHANNEL,
  type Principal,
  storeClientMetrics,
} from "@vexil/services";
import { sql } from "kysely";
import { startChangeRequestScheduler } from "./change-request-scheduler.ts";
import { startHousekeeping } from "./housekeeping.ts";
import { type PeriodicTask, startPeriodicTask } from "./periodic-task.ts";
import { clientAddress } from "./client-address.ts";
import { createCors } from "./cors.ts";
import { createConsoleApp } from "./console-app.ts";
import { createDocsPage } from "./docs-page.ts";
import type { Config } from "./config.ts";

export interface App {
  server: Server;
  deps: ApiDeps;
  scheduler: PeriodicTask;
  housekeeping: PeriodicTask;
  /** Stores the SDK metrics summed since the last pass. */
  metricsFlush: PeriodicTask;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes the database. */
  close(): Promise<void>;
}

export interface AppOptions {
  config: Config;
  db: Db;
  log: Logger;
  version?: string;
}

const READY_TIMEOUT_MS = 2_000;

/** Builds the HTTP server and everything behind it; it never listens (see server.ts). */
export function createApp({ config, db, log, version = "0.1.0" }: AppOptions): App {
  let sessionSecret = config.SESSION_SECRET;
  if (!sessionSecret) {
    sessionSecret = randomBytes(32).toString("base64url");
    log.warn(
      {},
      "SESSION_SECRET is not set: using a random one, so sessions end when this process does and other instances cannot read them",
    );
  }
  const sessions = { ...DEFAULT_SESSION_POLICY, idleMs: config.SESSION_IDLE_TIMEOUT_MS };
  const hasher = createPasswordHasher({
    // One core stays with the event loop, so a login storm cannot starve the rest of the API.
    workers: config.PASSWORD_WORKERS ?? Math.max(1, availableParallelism() - 1),
    cost: config.BCRYPT_COST,
  });
  const principals = createAuthCache<Principal>(db, {
    ttlMs: config.AUTH_CACHE_TTL_MS,
    onLost: (error) => {
      if (!closing)
        log.warn({ err: error }, "lost the database connection that hears auth changes; caching no credentials until it is back");
    },
  });
  // Snapshots of what SDKs are served, dropped at every change heard from any instance.
  const clientFeatures = createClientFeatureSnapshots(db.db);
  // What streams and delta polls are sent, as revisions per scope: each change heard is diffed and sent.
  const clientFeatureHubs = createClientFeatureHubs(db.db, {
    maxHistory: config.STREAMING_HISTORY,
    onError: (error) => log.warn({ err: error }, "could not read what SDKs are served; streams catch up at the next change"),
  });
  const clientStreams = createClientStreams({
    maxConnections: config.STREAMING_MAX_CONNECTIONS,
    heartbeatMs: config.STREAMING_HEARTBEAT_MS,
  });
  const flagChanges = db.listen(FLAG_CHANGES_CHANNEL, {
    onMessage: () => {
      clientFeatures.invalidate();
      clientFeatureHubs.changed();
    },
    onListening: () => {
      clientFeatures.resume();
      // Also after a lost connection: each hub reloads and sends what it missed.
      clientFeatureHubs.resume();
    },
    onLost: (error) => {
      clientFeatures.suspend();
      clientFeatureHubs.suspend();
      if (!closing)
        log.warn({ err: error }, "lost the database connection that hears flag changes; serving SDKs fresh reads until it is back");
    },
  });
  const clientMetrics = createClientMetricsBuffer();
  const metricsFlush = startPeriodicTask(log, "storing SDK metrics", config.METRICS_FLUSH_INTERVAL_MS, async () => {
    const drained = clientMetrics.drain();
    try {
      await storeClientMetrics(db.db, drained);
    } catch (error) {
      // Put back, so that a database outage delays the counts instead of losing them.
      for (const counts of drained) clientMetrics.restore(counts);
      throw error;
    }
  });
  const deps: ApiDeps = {
    db: db.db,
    log,
    hasher,
    cookies: { secret: sessionSecret, secure: config.SECURE_COOKIES, maxAgeSeconds: sessions.absoluteMs / 1000 },
    loginPolicy: { sessions, limits: DEFAULT_LOGIN_LIMITS },
    principals,
    clientFeatures,
    clientFeatureHubs,
    clientStreams,
    clientMetrics,
  };
  const trustedProxies = new Set(config.TRUST_PROXY);
  const cors = createCors(config.CORS_ORIGINS);
  const scheduler = startChangeRequestScheduler(db.db, log, config.SCHEDULER_INTERVAL_MS);
  const housekeeping = startHousekeeping(db.db, log, sessions, config.HOUSEKEEPING_INTERVAL_MS);
  const bridge = createRestBridge({ router: appRouter, bodyLimit: config.BODY_LIMIT_BYTES });
  const trpc = createTrpcHandler({ bodyLimit: config.BODY_LIMIT_BYTES });
  const frontend = createFrontendHandler({ bodyLimit: config.BODY_LIMIT_BYTES });
  const openApiJson = JSON.stringify(createOpenApiDocument(appRouter, { version }));
  const docsPage = createDocsPage();
  const consoleApp = createConsoleApp();
  if (!consoleApp)
    log.warn({}, "the console is not built (apps/web/dist is missing), so / serves nothing; `npx -y pnpm@10.34.9 start` builds it");

  async function ready(res: ServerResponse): Promise<void> {
    try {
      await Promise.race([
        sql`select 1`.execute(db.db),
        new Promise((_, reject) =>
          setTimeout(() => reject(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })), READY_TIMEOUT_MS).unref(),
        ),
      ]);
      sendJson(res, 200, { status: "ready" });
    } catch (error) {
      sendFailure(res, toHttpFailure(error));
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    // The request's logger is made when something logs: a child serialises its bindings, which
    // showed in the profile of SDK polls, where nothing logs at the usual production level.
    let reqLog: Logger | undefined;
    const requestLog = () => (reqLog ??= log.child({ reqId: requestId }));
    res.setHeader("x-request-id", requestId);
    res.setHeader("x-content-type-options", "nosniff");
    // Admin data and auth responses must not linger in shared or browser caches.
    res.setHeader("cache-control", "no-store");
    if (log.isLevelEnabled?.("info") ?? true) {
      res.on("finish", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        requestLog().info({ method: req.method, url: req.url, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
      });
    }

    if (cors(req, res)) return;

    const url = req.url ?? "/";
    const path = url.split("?", 1)[0] as string;
    if (req.method === "GET" && path === "/health") return sendJson(res, 200, { status: "ok" });
    if (req.method === "GET" && path === "/ready") return ready(res);
    if (req.method === "GET" && path === "/docs/openapi.json") {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end(openApiJson);
      return;
    }
    if (req.method === "GET" && docsPage(path, res)) return;
    if (consoleApp?.(req.method ?? "", path, res)) return;

    const ctx: Context = {
      deps,
      db: db.db,
      principal: await authenticate(deps, { authorization: req.headers.authorization, cookie: req.headers.cookie }),
      requestId,
      get log() {
        return requestLog();
      },
      ip: clientAddress(req, trustedProxies),
      userAgent: req.headers["user-agent"] ?? null,
      setHeader: (name, value) => res.setHeader(name, value),
    };
    if (path.startsWith("/trpc/")) return trpc(req, res, ctx);
    if (req.method === "GET" && path === "/api/client/features") return handleClientFeatures(req, res, ctx);
    if ((req.method === "GET" || req.method === "POST") && path === "/api/frontend") return frontend(req, res, ctx);
    if (req.method === "GET" && path === "/api/client/delta") return handleClientDelta(req, res, ctx);
    if (req.method === "GET" && path === "/api/client/streaming") return handleClientStreaming(req, res, ctx);
    return bridge(req, res, ctx);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      const failure = toHttpFailure(error);
      log.error({ err: failure.unexpected ?? error, errorId: failure.body.id }, "request failed");
      sendFailure(res, failure);
    });
  });
  // Node answers what it cannot parse as HTTP with a bare reply of its own; ours carries the one error body.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const timedOut = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
    const [status, reason] = timedOut ? [408, "Request Timeout"] : [400, "Bad Request"];
    const body = JSON.stringify({
      id: randomUUID(),
      name: timedOut ? "RequestTimeout" : "ValidationError",
      message: timedOut ? "The request was not received in time." : "The request could not be parsed as HTTP.",
    });
    log.info({ code: error.code, status }, "unparseable request");
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-content-type-options: nosniff\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  server.requestTimeout = config.REQUEST_TIMEOUT_MS;
  server.headersTimeout = config.HEADERS_TIMEOUT_MS;
  server.keepAliveTimeout = config.KEEP_ALIVE_TIMEOUT_MS;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Streams never go idle by themselves: ended now, their SDKs reconnect (to another instance).
      clientStreams.close();
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_GRACE_MS);
      // Keep-alive connections become idle as their last response ends; close them as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      try {
        await closed;
      } finally {
        clearTimeout(force);
        clearInterval(sweep);
      }
      await scheduler.stop();
      await metricsFlush.stop();
      await metricsFlush.tick();
      await housekeeping.stop();
      await principals.close();
      await flagChanges.close();
      await hasher.close();
      await db.close();
    })();
    return closing;
  };

  return { server, deps, scheduler, housekeeping, metricsFlush, close };
}
