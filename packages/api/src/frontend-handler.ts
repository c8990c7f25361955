import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FrontendToggle } from "@vexil/services";
import { etagMatches } from "./etag-match.ts";
import { contextFromQuery } from "./frontend-query.ts";
import { frontendToggles } from "./frontend-toggles.ts";
import { frontendContextInputSchema, frontendRequestSchema } from "./schemas/frontend.ts";
import type { RawHandler } from "./trpc.ts";

/** Browsers poll: an unchanged answer is a 304 with no body, which a procedure has no way to say. */
function sendToggles(req: IncomingMessage, res: ServerResponse, toggles: FrontendToggle[]): void {
  const body = Buffer.from(JSON.stringify({ toggles }));
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  if (etagMatches(req.headers["if-none-match"], etag)) {
    res.writeHead(304, { etag });
    res.end();
    return;
  }
  res.writeHead(200, { etag, "content-type": "application/json; charset=utf-8", "content-length": body.length });
  res.end(body);
}

/** `GET /api/frontend` (docs/sdk-protocols.md#frontend-api) over REST: the context is the query, `properties[name]` as unleash-proxy-client writes it. */
export const handleFrontendQuery: RawHandler = async (req, res, ctx) => {
  const url = req.url ?? "/";
  const queryAt = url.indexOf("?");
  const context = frontendContextInputSchema.parse(queryAt === -1 ? {} : contextFromQuery(url.slice(queryAt + 1)));
  sendToggles(req, res, await frontendToggles(ctx, context));
};

/** `POST /api/frontend` (docs/sdk-protocols.md#frontend-api) over REST: the context is the body's `{context}`. */
export const handleFrontendEvaluation: RawHandler = async (req, res, ctx, { body }) => {
  const context = frontendRequestSchema.parse(body ?? {}).context ?? {};
  sendToggles(req, res, await frontendToggles(ctx, context));
};
