import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { checkAccess } from "./access.ts";
import type { Context } from "./context.ts";
import { etagMatches } from "./etag-match.ts";
import { contextFromQuery } from "./frontend-query.ts";
import { frontendToggles } from "./frontend-toggles.ts";
import { readJsonBody } from "./request-body.ts";
import { sendError } from "./rest-bridge.ts";
import { frontendContextInputSchema, frontendRequestSchema } from "./schemas/frontend.ts";

export type FrontendHandler = (req: IncomingMessage, res: ServerResponse, ctx: Context) => Promise<void>;

/**
 * `GET` and `POST /api/frontend` (docs/sdk-protocols.md#frontend-api), at the edge rather than through the REST bridge:
 * browsers poll it, the query's `properties[name]` needs parsing, and an unchanged answer is a
 * 304 with no body, which the bridge has no way to say. Checks in the order of docs/errors.md#check-order: 401, 403,
 * then the body's 415, 413 and 400.
 */
export function createFrontendHandler(options: { bodyLimit: number }): FrontendHandler {
  return async (req, res, ctx) => {
    try {
      checkAccess(ctx.principal, "frontend");
      let context: Parameters<typeof frontendToggles>[3];
      if (req.method === "POST") {
        context = frontendRequestSchema.parse((await readJsonBody(req, options.bodyLimit)) ?? {}).context ?? {};
      } else {
        req.resume();
        const url = req.url ?? "/";
        const queryAt = url.indexOf("?");
        context = frontendContextInputSchema.parse(queryAt === -1 ? {} : contextFromQuery(url.slice(queryAt + 1)));
      }
      const toggles = await frontendToggles(ctx.deps, ctx.principal, ctx.ip, context);
      const body = Buffer.from(JSON.stringify({ toggles }));
      const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
      if (etagMatches(req.headers["if-none-match"], etag)) {
        res.writeHead(304, { etag });
        res.end();
        return;
      }
      res.writeHead(200, { etag, "content-type": "application/json; charset=utf-8", "content-length": body.length });
      res.end(body);
    } catch (error) {
      sendError(res, ctx.log, error);
    }
  };
}
