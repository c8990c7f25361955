import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { clientScope, readsSegmentsAtTop } from "./client-scope.ts";
import { clientQueryFrom } from "./client-query.ts";
import { etagMatches } from "./etag-match.ts";
import type { RawHandler } from "./trpc.ts";

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
 * `GET /api/client/features` over REST, a raw handler rather than the procedure: SDKs poll it every
 * few seconds, so it answers prepared bytes from the snapshot (no JSON to build per request),
 * gzipped once per snapshot for SDKs that accept it (the Node SDK's fetch asks for gzip), and a matching
 * If-None-Match is a 304 with no body.
 */
export const handleClientFeatures: RawHandler = async (req, res, ctx) => {
  const query = clientQueryFrom(req.url);
  const spec = req.headers["unleash-client-spec"];
  const rendered = await ctx.deps.servedFeatures.rendered(clientScope(ctx.principal), {
    projects: query.projects,
    namePrefix: query.namePrefix,
    inlineSegmentConstraints: !readsSegmentsAtTop(Array.isArray(spec) ? spec[0] : spec),
  });
  if (etagMatches(req.headers["if-none-match"], rendered.etag)) {
    // A 304 names the Vary its 200 would have named (RFC 9110 §15.4.5), so that a cache keeps the right entry.
    res.writeHead(304, { etag: rendered.etag, vary: "accept-encoding" });
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
};
