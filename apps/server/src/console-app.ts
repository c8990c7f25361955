import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SELF_ONLY_CSP } from "./content-security-policy.ts";

interface Asset {
  body: Buffer;
  type: string;
}

/** In the installed package, the console sits in console/ beside dist/ (docs/operations.md#the-installable-package). */
const PACKAGED_CONSOLE = fileURLToPath(new URL("../console/", import.meta.url));

/**
 * Where the built console is: the package's own copy when installed with npm, else where `vite
 * build` of apps/web writes it in the repository (one level up from both src/ and dist/).
 */
export const CONSOLE_DIST = existsSync(join(PACKAGED_CONSOLE, "index.html"))
  ? PACKAGED_CONSOLE
  : fileURLToPath(new URL("../../web/dist/", import.meta.url));

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".ico": "image/x-icon",
};

/**
 * The console's own paths (apps/web/src/routes.tsx): each answers with the app, which then shows
 * the page. Only these, so /api, /auth, /trpc, /docs, /health and /ready, and the 404 of an
 * unknown API path, stay as they are.
 */
const APP_PATH =
  /^\/(?:(?:login|projects|change-requests|segments|playground|unknown-flags|banners|users|groups|tokens|events|integrations)(?:\/.*)?)?$/;

const SECURITY_HEADERS = { "content-security-policy": SELF_ONLY_CSP, "x-frame-options": "DENY", "referrer-policy": "no-referrer" };

/**
 * Serves the built console at `/` from memory: `index.html` for the app's paths (revalidated on
 * every load, so a new build shows at once) and the hashed files under `/assets/` (cached for a
 * year: a new build has new names). Null when the console was not built.
 */
export function createConsoleApp(dir = CONSOLE_DIST): ((method: string, path: string, res: ServerResponse) => boolean) | null {
  if (!existsSync(join(dir, "index.html"))) return null;
  const page = readFileSync(join(dir, "index.html"));
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(join(dir, "assets"))) {
    const type = TYPES[extname(name)];
    if (type) assets.set(`/assets/${name}`, { body: readFileSync(join(dir, "assets", name)), type });
  }
  return (method, path, res) => {
    if (method !== "GET" && method !== "HEAD") return false;
    const asset = assets.get(path);
    if (asset) {
      res.writeHead(200, {
        "content-type": asset.type,
        "content-length": asset.body.length,
        "cache-control": "public, max-age=31536000, immutable",
      });
    } else if (APP_PATH.test(path)) {
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "content-length": page.length,
        "cache-control": "no-cache",
        ...SECURITY_HEADERS,
      });
    } else {
      return false;
    }
    res.end(method === "HEAD" ? undefined : (asset?.body ?? page));
    return true;
  };
}
