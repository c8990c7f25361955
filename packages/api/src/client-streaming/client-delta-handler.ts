import { clientScope } from "../client-scope.ts";
import type { RawHandler } from "../trpc.ts";
import { clientQueryFrom, narrowEvents, narrowHydration } from "../client-query.ts";

/** The revision an SDK holds, from its If-None-Match (`"<revision>"`, as this route's ETag gives it). */
function revisionFrom(header: string | string[] | undefined): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * `GET /api/client/delta` over REST (client specification 19 and 20; the Node SDK's `experimentalMode: {type: "polling",
 * format: "delta"}`): a hydration first; then, with the ETag as If-None-Match, the events since
 * that revision while they are kept (else a hydration again), or a 304 when nothing changed.
 */
export const handleClientDelta: RawHandler = async (req, res, ctx) => {
  const query = clientQueryFrom(req.url);
  const hub = ctx.deps.servedFeatures.hub(clientScope(ctx.principal));
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
};
