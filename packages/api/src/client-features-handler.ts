import type { IncomingMessage, ServerResponse } from "node:http";
import { ValidationError } from "@vexil/services";
import { checkAccess } from "./access.ts";
import { readsSegmentsAtTop, renderedFeatures } from "./client-scope.ts";
import type { Context } from "./context.ts";
import { etagMatches } from "./etag-match.ts";
import { toHttpFailure } from "./error-response.ts";
import { sendFailure } from "./rest-bridge.ts";

const MAX_QUERY_VALUE = 100;

/**
 * `GET /api/client/features`, at the edge rather than through the REST bridge: SDKs poll it every
 * few seconds, so it answers prepared bytes from the snapshot (no JSON to build per request),
 * and a matching If-None-Match is a 304 with no body, which the bridge has no way to say.
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
    res.writeHead(200, { etag: rendered.etag, "content-type": "application/json; charset=utf-8", "content-length": rendered.body.length });
    res.end(rendered.body);
  } catch (error) {
    const failure = toHttpFailure(error);
    if (failure.unexpected) ctx.log.error({ err: failure.unexpected, errorId: failure.body.id }, "unexpected error");
    sendFailure(res, failure);
  }
}
