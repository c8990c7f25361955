import type { IncomingMessage, ServerResponse } from "node:http";

const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE";
const ALLOWED_HEADERS = "authorization, content-type";
const PREFLIGHT_MAX_AGE_SECONDS = "600";

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
    if (req.method !== "OPTIONS" || !req.headers["access-control-request-method"]) return false;
    res.writeHead(204, {
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": PREFLIGHT_MAX_AGE_SECONDS,
    });
    res.end();
    req.resume();
    return true;
  };
}
