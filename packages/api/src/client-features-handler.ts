import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { ValidationError } from "@vexil/services";
import { checkAccess } from "./access.ts";
import { readsSegmentsAtTop, renderedFeatures } from "./client-scope.ts";
import type { Context } from "./context.ts";
import { etagMatches } from "./etag-match.ts";
import { sendError } from "./rest-bridge.ts";

const MAX_QUERY_VALUE = 100;
// Below this a body is sent as it is: compressing it would save less than its headers weigh.
const MIN_GZIP_BYTES = 1_024;
const gzipAsync = promisify(gzip);
// Compressed once per rendered body (a snapshot's), and forgotten with it.
const gzipped = new WeakMap<Buffer, Promise<Buffer>>();

function gzipOf(body: Buffer): Promise<Buffer> {
  let compressed = gzipped.get(body);
  if (!compressed) {
    compressed = gzipAsync(body);
    gzipped.set(body, compressed);
    compressed.catch(() => gzipped.delete(body));
  }
  return compressed;
}

/** Whether `Accept-Encoding` takes gzip (the SDKs' fetch sends `gzip,deflate`), q=0 meaning no. */
function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(",") : header;
  if (!value) return false;
  return value.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * `GET /api/client/features`, at the edge rather than through the REST bridge: SDKs poll it every
 * few seconds, so it answers prepared bytes from the snapshot (no JSON to build per request),
 * gzipped once per snapshot for SDKs that accept it (the Node SDK's fetch asks for gzip), and a matching
 * If-None-Match is a 304 with no body, which the bridge has no way to say.
 */
export async function handleClientFeatures(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  try {
    req.resume();
    checkAccess(ctx.principal, "client");
    const params = new URL(req.url ?? "/", "http://x").searchParams;
    const projects = params.getAll("project");
    const namePrefix = params.get("namePrefix") ?? undefined;
    for (const [name, value] of [...projects.map((p) => ["project", p] as const), ["namePrefix", namePrefix ?? ""] as const]) {
      if (value.length > MAX_QUERY_VALUE) {
        throw new ValidationError(`"${name}" may be at most ${MAX_QUERY_VALUE} characters.`, [{ path: name, message: "too long" }]);
      }
    }
    const spec = req.headers["unleash-client-spec"];
    const rendered = await renderedFeatures(ctx.deps, ctx.principal, {
      projects,
      namePrefix,
      inlineSegmentConstraints: !readsSegmentsAtTop(Array.isArray(spec) ? spec[0] : spec),
    });
    if (etagMatches(req.headers["if-none-match"], rendered.etag)) {
      res.writeHead(304, { etag: rendered.etag });
      res.end();
      return;
    }
    const headers = { etag: rendered.etag, "content-type": "application/json; charset=utf-8", vary: "accept-encoding" };
    if (rendered.body.length >= MIN_GZIP_BYTES && acceptsGzip(req.headers["accept-encoding"])) {
      const body = await gzipOf(rendered.body);
      res.writeHead(200, { ...headers, "content-encoding": "gzip", "content-length": body.length });
      res.end(body);
      return;
    }
    res.writeHead(200, { ...headers, "content-length": rendered.body.length });
    res.end(rendered.body);
  } catch (error) {
    sendError(res, ctx.log, error);
  }
}
