import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type ApiDeps,
  appRouter,
  authenticate,
  presentedCredential,
  type Context,
  createApiHandler,
  createOpenApiDocument,
  type Logger,
  sendError,
  sendJson,
  setRouteLabel,
} from "@vexil/api";
import { AuthenticationRequired, type Principal } from "@vexil/services";
import { sql } from "kysely";
import { clientAddress } from "./client-address.ts";
import type { Config } from "./config.ts";
import { createConsoleApp } from "./console-app.ts";
import { createCors } from "./cors.ts";
import { createDocsPage } from "./docs-page.ts";
import { RequestLogger } from "./request-logger.ts";
import type { ServerMetrics } from "./metrics/server-metrics.ts";
import type { VexilResponse } from "./server-response.ts";

const READY_TIMEOUT_MS = 2_000;

export interface RequestHandlerOptions {
  config: Config;
  deps: ApiDeps;
  log: Logger;
  metrics: ServerMetrics;
  version: string;
}

/** A route of the server's own, outside the API: answered before anyone is authenticated. */
type OwnRoute = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether `Authorization` is `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const [scheme, given] = (header ?? "").split(" ", 2);
  return scheme?.toLowerCase() === "bearer" && given !== undefined && timingSafeEqual(digest(given), digest(token));
}
/** Files served from memory; false for a request they do not serve. */
type StaticFiles = (method: string, path: string, res: ServerResponse) => boolean;

/**
 * Answers every request: the server's own routes (health, readiness, the OpenAPI document), its
 * static files (the docs page, the console), and then the API, whose routes are the router's.
 */
export function createRequestHandler({
  config,
  deps,
  log,
  metrics,
  version,
}: RequestHandlerOptions): (req: IncomingMessage, res: VexilResponse) => void {
  const trustedProxies = new Set(config.TRUST_PROXY);
  const cors = createCors(config.CORS_ORIGINS);
  const api = createApiHandler({ bodyLimit: config.BODY_LIMIT_BYTES });
  const openApiJson = JSON.stringify(createOpenApiDocument(appRouter, { version }));
  const consoleApp = createConsoleApp();
  if (!consoleApp)
    log.warn({}, "the console is not built (apps/web/dist is missing), so / serves nothing; `npx -y pnpm@10.34.9 start` builds it");

  const ownRoutes = new Map<string, OwnRoute>([
    ["GET /health", (_req, res) => sendJson(res, 200, { status: "ok" })],
    [
      "GET /ready",
      async (_req, res) => {
        await Promise.race([
          sql`select 1`.execute(deps.db),
          new Promise((_, reject) =>
            setTimeout(() => reject(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })), READY_TIMEOUT_MS).unref(),
          ),
        ]);
        sendJson(res, 200, { status: "ready" });
      },
    ],
    [
      "GET /docs/openapi.json",
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
        res.end(openApiJson);
      },
    ],
    [
      // Unleash's path; open unless PROMETHEUS_TOKEN is set (docs/operations.md#prometheus).
      "GET /internal-backstage/prometheus",
      async (req, res) => {
        const token = config.PROMETHEUS_TOKEN;
        if (token && !bearerMatches(req.headers.authorization, token)) throw new AuthenticationRequired();
        const { contentType, body } = await metrics.scrape();
        res.writeHead(200, { "content-type": contentType });
        res.end(body);
      },
    ],
  ]);
  const staticFiles: StaticFiles[] = consoleApp ? [createDocsPage(), consoleApp] : [createDocsPage()];

  /** The context of an API call, once its caller is known. */
  const contextOf = (req: IncomingMessage, res: VexilResponse, principal: Principal | null, requestLog: Logger): Context => ({
    deps,
    db: deps.db,
    principal,
    refusedCredential:
      principal === null
        ? (presentedCredential({
            authorization: req.headers.authorization,
            apiKey: req.headers["x-api-key"],
            cookie: req.headers.cookie,
          }) ?? undefined)
        : undefined,
    log: requestLog,
    ip: clientAddress(req, trustedProxies),
    userAgent: req.headers["user-agent"] ?? null,
    cookie: req.headers.cookie,
    setHeader: (name, value) => res.setHeader(name, value),
  });

  /** Answers the request: at once when nothing needs waiting for (a cached credential), else through a promise. */
  function handle(req: IncomingMessage, res: VexilResponse, requestLog: Logger): void | Promise<void> {
    if (cors(req, res)) return;
    const method = req.method ?? "";
    const path = (req.url ?? "/").split("?", 1)[0] as string;
    // The API's paths (and OFREP's) are neither the server's own routes nor files: SDK polls skip both look-ups.
    if (!path.startsWith("/api/") && !path.startsWith("/ofrep/")) {
      const own = ownRoutes.get(`${method} ${path}`);
      if (own) {
        setRouteLabel(res, path);
        return own(req, res);
      }
      if (staticFiles.some((files) => files(method, path, res))) return setRouteLabel(res, "static");
    }
    const principal = authenticate(deps, {
      authorization: req.headers.authorization,
      apiKey: req.headers["x-api-key"],
      cookie: req.headers.cookie,
    });
    if (principal instanceof Promise) return principal.then((found) => api(req, res, contextOf(req, res, found, requestLog)));
    return api(req, res, contextOf(req, res, principal, requestLog));
  }

  return (req, res) => {
    const started = performance.now();
    // Its id is made when first asked for: by the head of any answer but a 304, or by a log line.
    const requestLog = new RequestLogger(log, res);
    // Admin data and auth responses must not linger in shared or browser caches (a 304 says it again, as the 200 did).
    res.setHeader("cache-control", "no-store");
    const logRequests = log.isLevelEnabled?.("info") ?? true;
    res.on("finish", () => {
      const ms = performance.now() - started;
      metrics.observeRequest(req, res, ms / 1e3);
      if (logRequests) {
        requestLog.info({ method: req.method, url: req.url, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
      }
    });
    const fail = (error: unknown) => sendError(res, requestLog, error);
    try {
      handle(req, res, requestLog)?.catch(fail);
    } catch (error) {
      fail(error);
    }
  };
}
