import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ServerResponse } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SELF_ONLY_CSP } from "./content-security-policy.ts";

interface Asset {
  body: Buffer;
  type: string;
}

const require = createRequire(import.meta.url);
const swaggerUi = dirname(require.resolve("swagger-ui-dist/package.json"));
const own = join(dirname(fileURLToPath(import.meta.url)), "docs");

const file = (dir: string, name: string, type: string): Asset => ({ body: readFileSync(join(dir, name)), type });

/**
 * The API reference page at `/docs`: Swagger UI from npm, served with its assets from this
 * server, reading `/docs/openapi.json`. Returns false for a request it does not serve.
 */
export function createDocsPage(): (method: string, path: string, res: ServerResponse) => boolean {
  const page = file(own, "index.html", "text/html; charset=utf-8");
  const assets = new Map<string, Asset>([
    ["swagger-ui.css", file(swaggerUi, "swagger-ui.css", "text/css; charset=utf-8")],
    ["swagger-ui-bundle.js", file(swaggerUi, "swagger-ui-bundle.js", "text/javascript; charset=utf-8")],
    ["favicon-32x32.png", file(swaggerUi, "favicon-32x32.png", "image/png")],
    ["vexil-docs.js", file(own, "vexil-docs.js", "text/javascript; charset=utf-8")],
  ]);
  return (method, path, res) => {
    if (method !== "GET") return false;
    const asset = path === "/docs" || path === "/docs/" ? page : path.startsWith("/docs/assets/") ? assets.get(path.slice(13)) : undefined;
    if (!asset) return false;
    res.writeHead(200, {
      "content-type": asset.type,
      "content-length": asset.body.length,
      "content-security-policy": SELF_ONLY_CSP,
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      // The page follows the server's version; Swagger UI's files change only with the package.
      ...(asset === page ? {} : { "cache-control": "public, max-age=3600" }),
    });
    res.end(asset.body);
    return true;
  };
}
