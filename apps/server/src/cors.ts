import type { IncomingMessage, ServerResponse } from "node:http";

const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE";
/**
 * Request headers a page may send: the API's own, and those `unleash-proxy-client` sends to the
 * frontend API (its ETag comes back as If-None-Match). Custom `x-unleash-*` headers are allowed by prefix.
 */
const ALLOWED_HEADERS = [
  "authorization",
  "content-type",
  "if-none-match",
  "unleash-appname",
  "unleash-connection-id",
  "unleash-sdk",
  "unleash-client-spec",
  // OpenFeature's OFREP providers may send their token here.
  "x-api-key",
];
const ALLOWED_PREFIX = "x-unleash-";
/** Response headers a page may read: the proxy client keeps the ETag for its next poll. */
const EXPOSED_HEADERS = "etag";
const PREFLIGHT_MAX_AGE_SECONDS = "600";

/** The allowed headers a preflight asks for, so that `x-unleash-*` ones can be named back. */
function allowedHeaders(requested: string | undefined): string {
  const extra = (requested ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h.startsWith(ALLOWED_PREFIX) && /^[a-z0-9-]+$/.test(h));
  return [...ALLOWED_HEADERS, ...new Set(extra)].join(", ");
}

/**
 * Cross-origin access, off unless origins are listed: a browser page from another origin gets
 * CORS headers only when its exact origin is on the list. Returns true when it answered a preflight.
 */
export function createCors(allowedOrigins: readonly string[]): (req: IncomingMessage, res: ServerResponse) => boolean {
  const allowed = new Set(allowedOrigins);
  return (req, res) => {
    const origin = req.headers.origin;
    if (allowed.size === 0 || !origin || !allowed.has(origin)) return false;
    res.setHeader("access-control-allow-origin", origin);
    res.setHeader("access-control-allow-credentials", "true");
    res.setHeader("vary", "Origin");
    if (req.method !== "OPTIONS" || !req.headers["access-control-request-method"]) {
      res.setHeader("access-control-expose-headers", EXPOSED_HEADERS);
      return false;
    }
    res.writeHead(204, {
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-allow-headers": allowedHeaders(req.headers["access-control-request-headers"]),
      "access-control-max-age": PREFLIGHT_MAX_AGE_SECONDS,
    });
    res.end();
    req.resume();
    return true;
  };
}
