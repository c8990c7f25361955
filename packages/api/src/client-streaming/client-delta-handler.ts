import type { IncomingMessage, ServerResponse } from "node:http";
import { checkAccess } from "../access.ts";
import { narrowEvents, narrowHydration, clientQueryFrom } from "./client-query.ts";
import { clientHub } from "../client-scope.ts";
import type { Context } from "../context.ts";
import { sendError } from "../rest-bridge.ts";

/** The revision an SDK holds, from its If-None-Match (`"<revision>"`, as this route's ETag gives it). */
export function revisionFrom(header: string | string[] | undefined): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * `GET /api/client/delta` (client specification 19 and 20; the Node SDK's `experimentalMode: {type: "polling",
 * format: "delta"}`): a hydration first; then, with the ETag as If-None-Match, the events since
 * that revision while they are kept (else a hydration again), or a 304 when nothing changed.
 */
export async function handleClientDelta(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  try {
    req.resume();
    checkAccess(ctx.principal, "client");
    const query = clientQueryFrom(req.url);
    const hub = clientHub(ctx.deps, ctx.principal);
    await hub.ready();
    const delta = hub.deltaSince(revisionFrom(req.headers["if-none-match"]));
    const etag = `"${delta.revision}"`;
    if (delta.kind === "unchanged") {
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    const events = delta.kind === "hydration" ? [narrowHydration(delta.hydration, query)] : narrowEvents(delta.events, query);
    const body = Buffer.from(JSON.stringify({ events }));
    res.writeHead(200, { etag, "content-type": "application/json; charset=utf-8", "content-length": body.length });
    res.end(body);
  } catch (error) {
    sendError(res, ctx.log, error);
  }
}
