import type { IncomingMessage, ServerResponse } from "node:http";
import type { AnyRouter } from "@trpc/server";
import { NotFoundError, ValidationError } from "@vexil/services";
import { checkAccess } from "./access.ts";
import type { Context, Logger, ProtectedContext } from "./context.ts";
import { type HttpFailure, toHttpFailure } from "./error-response.ts";
import { readJsonBody } from "./request-body.ts";
import { type RestRoute, restRoutes } from "./rest-routes.ts";
import { TransportError } from "./transport-error.ts";

interface MatchableRoute extends RestRoute {
  pattern: RegExp;
}

export interface RestBridgeOptions {
  router: AnyRouter;
  /** Bytes a request body may have (docs/limits.md#body-limit: 256 KiB by default). */
  bodyLimit: number;
}

export type RestHandler = (req: IncomingMessage, res: ServerResponse, ctx: Context) => Promise<void>;

interface RouteTable {
  /** Routes without parameters by `METHOD path` (no trailing slash): SDK polls find theirs without a scan. */
  literal: Map<string, MatchableRoute>;
  /** Every route, literal segments before parameters, for the rest and for 405's Allow. */
  all: MatchableRoute[];
}

function compileRoutes(router: AnyRouter): RouteTable {
  const routes = restRoutes(router).map((route) => {
    if (route.meta.raw && route.meta.access === "public") {
      // A raw handler is given the caller's principal; a public route has none to give.
      throw new Error(`${route.procedurePath}: a raw route cannot be public.`);
    }
    const source = route.path
      .split("/")
      .map((segment) => (/^\{\w+\}$/.test(segment) ? "([^/]+)" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    return { ...route, pattern: new RegExp(`^${source}/?$`) };
  });
  // Literal segments win over parameters: `/banners/{id}` must not swallow a literal sibling.
  const all = routes.sort((a, b) => a.params.length - b.params.length);
  const literal = new Map(all.filter((route) => route.params.length === 0).map((route) => [`${route.method} ${route.path}`, route]));
  return { literal, all };
}

function matchRoute(
  table: RouteTable,
  method: string,
  pathname: string,
): { route: MatchableRoute; values: string[] } | { allowed: string[] } {
  const exact = table.literal.get(`${method} ${pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname}`);
  if (exact) return { route: exact, values: [] };
  const allowed = new Set<string>();
  for (const route of table.all) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    if (route.method !== method) {
      allowed.add(route.method);
      continue;
    }
    return { route, values: m.slice(1) };
  }
  return { allowed: [...allowed] };
}

function decodeParam(raw: string, name: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ValidationError(`The path parameter "${name}" is not valid URL encoding.`, [
      { path: name, message: "not valid URL encoding" },
    ]);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(payload),
  });
  res.end(payload);
}

function sendFailure(res: ServerResponse, failure: HttpFailure): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, failure.status, failure.body, failure.headers);
}

/**
 * What a route answers for an error it threw: mapped once to its status and body, logged with
 * the body's id when it is unexpected (a bug), and the connection closed after a body too large.
 */
export function sendError(res: ServerResponse, log: Logger, error: unknown): void {
  const failure = toHttpFailure(error);
  if (failure.unexpected) log.error({ err: failure.unexpected, errorId: failure.body.id }, "unexpected error");
  if (failure.status === 413) res.setHeader("connection", "close");
  sendFailure(res, failure);
}

/** A GET's query parameters as the procedure's input fields: a repeated one becomes a list. */
function queryParameters(url: string, queryAt: number): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  if (queryAt === -1) return fields;
  for (const [key, value] of new URLSearchParams(url.slice(queryAt + 1))) {
    const seen = fields[key];
    fields[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return fields;
}

/**
 * Serves the router's routes at the paths their `meta.openapi` documents, checking in the
 * order of docs/errors.md#check-order (route, 401, 403, 415, 413, 400), then either hands the request to the route's
 * raw handler or calls the procedure through a tRPC caller, so that middleware and zod validation
 * are the same as on `/trpc`. Every failure is answered by sendError.
 */
export function createRestBridge({ router, bodyLimit }: RestBridgeOptions): RestHandler {
  const routes = compileRoutes(router);
  const createCaller = (router as AnyRouter & { createCaller: (ctx: Context) => unknown }).createCaller;

  return async (req, res, ctx) => {
    try {
      const url = req.url ?? "/";
      const queryAt = url.indexOf("?");
      const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
      const method = req.method ?? "GET";

      const matched = matchRoute(routes, method, pathname);
      if ("allowed" in matched) {
        const allow = matched.allowed.join(", ");
        if (allow) throw new TransportError("MethodNotAllowed", `${method} is not allowed on ${pathname}; use ${allow}.`, { allow });
        throw new NotFoundError(`There is no ${method} ${pathname}.`);
      }

      const { route, values } = matched;
      const params: Record<string, string> = {};
      for (const [i, name] of route.params.entries()) params[name] = decodeParam(values[i] as string, name);

      checkAccess(ctx.principal, route.meta.access ?? "authenticated", params.environment);

      // A route without a body leaves any sent one unread, and it would hold the connection's next request hostage.
      if (!route.hasBody) req.resume();
      const body = route.hasBody ? await readJsonBody(req, bodyLimit) : undefined;
      if (route.meta.raw) return await route.meta.raw.serve(req, res, ctx as ProtectedContext, { params, body });

      let input: Record<string, unknown> = route.hasBody ? params : { ...queryParameters(url, queryAt), ...params };
      if (body !== undefined) {
        if (route.meta.bodyField) {
          input = { ...params, [route.meta.bodyField]: body };
        } else if (body === null || typeof body !== "object" || Array.isArray(body)) {
          throw new ValidationError("The request body must be a JSON object.", [{ path: "", message: "expected an object" }]);
        } else {
          const clash = route.params.find((p) => p in body);
          if (clash) {
            throw new ValidationError(`"${clash}" belongs in the path, not in the body.`, [
              { path: clash, message: "not allowed in the body" },
            ]);
          }
          input = { ...(body as Record<string, unknown>), ...params };
        }
      }

      const caller = createCaller(ctx) as Record<string, unknown>;
      const call = route.procedurePath.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
        input: unknown,
      ) => Promise<unknown>;
      const result = await call(input);
      sendJson(res, route.meta.successStatus ?? 200, result);
    } catch (error) {
      sendError(res, ctx.log, error);
    }
  };
}
