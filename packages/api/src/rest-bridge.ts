import type { IncomingMessage, ServerResponse } from "node:http";
import type { AnyRouter } from "@trpc/server";
import { NotFoundError, ValidationError } from "@vexil/services";
import { type AccessScope, accessScopeFor, checkAccess } from "./access.ts";
import type { Context, Logger, ProtectedContext } from "./context.ts";
import { type FailureBody, type HttpFailure, toHttpFailure } from "./error-response.ts";
import { queryParameters } from "./query-parameters.ts";
import { type JsonBody, NO_BODY, readJsonBody } from "./request-body.ts";
import { setRouteLabel } from "./route-label.ts";
import { type RestRoute, restRoutes } from "./rest-routes.ts";
import { TransportError } from "./transport-error.ts";

/** A route with its place in the table: among routes that match a path, fewer parameters win, then the earlier one. */
interface MatchableRoute extends RestRoute {
  rank: number;
}

export interface RestBridgeOptions {
  router: AnyRouter;
  /** Bytes a request body may have (docs/limits.md#body-limit: 256 KiB by default). */
  bodyLimit: number;
}

export type RestHandler = (req: IncomingMessage, res: ServerResponse, ctx: Context) => Promise<void>;

/**
 * The routes as a tree of path segments: a literal segment's child by name, and one child for a
 * parameter (any non-empty segment). A match walks the request's segments, so that its cost follows
 * the path's length, not the number of routes (a scan of every route's pattern cost GET variants
 * about 13 µs a request at 108 routes; tooling/bench/README.md).
 */
interface RouteNode {
  literal: Map<string, RouteNode>;
  param: RouteNode | undefined;
  /** The routes that end here, by method. */
  routes: Map<string, MatchableRoute>;
}

const newNode = (): RouteNode => ({ literal: new Map(), param: undefined, routes: new Map() });

/**
 * The tree, and the routes without parameters by method and path: such a route is the best match
 * of its path whenever it exists (it has the fewest parameters), so an SDK's poll of a literal path
 * is found by one look-up, without walking the tree.
 */
interface CompiledRoutes {
  root: RouteNode;
  literal: Map<string, MatchableRoute>;
}

function compileRoutes(router: AnyRouter): CompiledRoutes {
  const root = newNode();
  const literal = new Map<string, MatchableRoute>();
  // Literal segments win over parameters: `/banners/{id}` must not swallow a literal sibling.
  const routes = restRoutes(router).sort((a, b) => a.params.length - b.params.length);
  routes.forEach((route, rank) => {
    if (route.meta.raw && route.meta.access === "public" && !route.meta.raw.credentialInPath && !route.meta.raw.redirect) {
      // A raw handler is given the caller's principal; a public route has none to give.
      throw new Error(`${route.procedurePath}: a raw route cannot be public.`);
    }
    let node = root;
    for (const segment of route.path.split("/").slice(1)) {
      if (/^\{\w+\}$/.test(segment)) {
        node.param ??= newNode();
        node = node.param;
      } else {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = newNode()));
        node = next;
      }
    }
    if (!node.routes.has(route.method)) node.routes.set(route.method, { ...route, rank });
    const literalKey = `${route.method} ${route.path}`;
    if (route.params.length === 0 && !literal.has(literalKey)) literal.set(literalKey, node.routes.get(route.method) as MatchableRoute);
  });
  return { root, literal };
}

const NO_VALUES: string[] = [];

function matchRoute(
  { root, literal }: CompiledRoutes,
  method: string,
  pathname: string,
): { route: MatchableRoute; values: string[] } | { allowed: string[] } {
  // One trailing slash is allowed, as on the documented paths without it.
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  const exact = literal.get(`${method} ${path}`);
  if (exact) return { route: exact, values: NO_VALUES };
  const segments = path.split("/");
  let best: { route: MatchableRoute; values: string[] } | undefined;
  const allowed = new Set<string>();
  const values: string[] = [];
  // Every way the path matches (literal and parameter children alike), keeping the best-ranked route of the method.
  const walk = (node: RouteNode, i: number) => {
    if (i === segments.length) {
      const route = node.routes.get(method);
      if (route) {
        if (!best || route.rank < best.route.rank) best = { route, values: [...values] };
      } else {
        for (const other of node.routes.keys()) allowed.add(other);
      }
      return;
    }
    const segment = segments[i] as string;
    const next = node.literal.get(segment);
    if (next) walk(next, i + 1);
    if (node.param && segment !== "") {
      values.push(segment);
      walk(node.param, i + 1);
      values.pop();
    }
  };
  if (segments[0] === "") walk(root, 1);
  return best ?? { allowed: [...allowed] };
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

/** A JSON answer; a protocol with its own JSON media type (SCIM's) passes it as `content-type` in `headers`. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    ...headers,
    "content-length": Buffer.byteLength(payload),
  });
  res.end(payload);
}

function sendFailure(res: ServerResponse, failure: { status: number; body: unknown; headers: Record<string, string> }): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, failure.status, failure.body, failure.headers);
}

/** Where a failure is answered: the route's own protocol's body (and its parameters), when it has one. */
interface FailureRoute {
  body?: FailureBody;
  params: Record<string, string>;
}

/**
 * What a route answers for an error it threw: mapped once to its status and body (in the route's
 * own protocol's shape when it speaks another), logged with the body's id when it is unexpected
 * (a bug), and the connection closed after a body too large.
 */
export function sendError(res: ServerResponse, log: Logger, error: unknown, route?: FailureRoute): void {
  const failure: HttpFailure = toHttpFailure(error);
  if (failure.unexpected) log.error({ err: failure.unexpected, errorId: failure.body.id }, "unexpected error");
  if (failure.status === 413) res.setHeader("connection", "close");
  sendFailure(res, route?.body ? route.body(failure, route.params) : failure);
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

  /** The route a request is for: a 404 or 405 (in the one error body) when there is none. */
  const routeOf = (req: IncomingMessage, pathname: string) => {
    const method = req.method ?? "GET";
    const matched = matchRoute(routes, method, pathname);
    if ("allowed" in matched) {
      const allow = matched.allowed.join(", ");
      if (allow) throw new TransportError("MethodNotAllowed", `${method} is not allowed on ${pathname}; use ${allow}.`, { allow });
      throw new NotFoundError(`There is no ${method} ${pathname}.`);
    }
    return matched;
  };

  /** The route's path parameters, decoded. */
  const paramsOf = (route: MatchableRoute, values: string[]) => {
    const params: Record<string, string> = {};
    for (let i = 0; i < route.params.length; i++) {
      const name = route.params[i] as string;
      params[name] = decodeParam(values[i] as string, name);
    }
    return params;
  };

  const callProcedure = async (
    req: IncomingMessage,
    res: ServerResponse,
    ctx: Context,
    { route, params }: { route: MatchableRoute; params: Record<string, string> },
    url: string,
    queryAt: number,
    failureRoute: FailureRoute,
    accessChecked: boolean,
  ) => {
    try {
      const body = route.hasBody ? (await readJsonBody(req, bodyLimit)).value : undefined;
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

      const caller = createCaller(accessChecked ? { ...ctx, accessChecked: true } : ctx) as Record<string, unknown>;
      const call = route.procedurePath.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
        input: unknown,
      ) => Promise<unknown>;
      const result = await call(input);
      sendJson(res, route.meta.successStatus ?? 200, result);
    } catch (error) {
      sendError(res, ctx.log, error, failureRoute);
    }
  };

  /** From the access check on, once the call's scope is known (docs/errors.md#check-order). */
  const serveInScope = (
    req: IncomingMessage,
    res: ServerResponse,
    ctx: Context,
    found: { route: MatchableRoute; params: Record<string, string> },
    scope: AccessScope,
    url: string,
    queryAt: number,
    failureRoute: FailureRoute,
  ): Promise<void> => {
    try {
      checkAccess(
        ctx.principal,
        found.route.meta.access ?? "authenticated",
        scope,
        found.route.meta.beforePasswordChange,
        ctx.refusedCredential,
      );
      // A route without a body leaves any sent one unread, and it would hold the connection's next request hostage.
      if (!found.route.hasBody) req.resume();
      // A raw route (an SDK poll) goes straight to its handler, with its body when it has one: no frame
      // of the bridge's waits for it, and none at all when the body is already buffered.
      const raw = found.route.meta.raw;
      if (raw) {
        const fail = (error: unknown) => sendError(res, ctx.log, error, failureRoute);
        const serve = ({ value, text }: JsonBody) =>
          raw.serve(req, res, ctx as ProtectedContext, { params: found.params, body: value, text }).catch(fail);
        const read = found.route.hasBody ? readJsonBody(req, bodyLimit, raw.mediaType) : NO_BODY;
        return read instanceof Promise ? read.then(serve).catch(fail) : serve(read);
      }
    } catch (error) {
      sendError(res, ctx.log, error, failureRoute);
      return Promise.resolve();
    }
    // A project named only in the body is checked by the procedure, which reads it (docs/project-roles.md#which-routes).
    const decided = !(scope.projectInBody && scope.projectId === undefined);
    return callProcedure(req, res, ctx, found, url, queryAt, failureRoute, decided);
  };

  return (req, res, ctx) => {
    const url = req.url ?? "/";
    const queryAt = url.indexOf("?");
    let matched: ReturnType<typeof routeOf>;
    try {
      matched = routeOf(req, queryAt === -1 ? url : url.slice(0, queryAt));
      setRouteLabel(res, matched.route.path);
    } catch (error) {
      sendError(res, ctx.log, error);
      return Promise.resolve();
    }
    // From here on the route is known: its failures leave in its own protocol's body, when it has one.
    const failureRoute: FailureRoute = { body: matched.route.meta.raw?.failureBody, params: {} };
    let found: { route: MatchableRoute; params: Record<string, string> };
    let scope: ReturnType<typeof accessScopeFor>;
    try {
      found = { route: matched.route, params: paramsOf(matched.route, matched.values) };
      failureRoute.params = found.params;
      scope = accessScopeFor(
        ctx.db,
        ctx.principal,
        found.route.meta.access ?? "authenticated",
        found.params,
        found.route.meta.projectField,
      );
    } catch (error) {
      sendError(res, ctx.log, error, failureRoute);
      return Promise.resolve();
    }
    // Only a route naming a flag without its project, for a caller holding project roles, waits for a look-up here.
    if (scope instanceof Promise) {
      return scope.then(
        (resolved) => serveInScope(req, res, ctx, found, resolved, url, queryAt, failureRoute),
        (error) => sendError(res, ctx.log, error, failureRoute),
      );
    }
    return serveInScope(req, res, ctx, found, scope, url, queryAt, failureRoute);
  };
}
