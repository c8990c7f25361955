import type { IncomingMessage, ServerResponse } from "node:http";
import { NotFoundError } from "@vexil/services";
import { checkAccess } from "./access.ts";
import { clientQueryFrom } from "./client-query.ts";
import { clientHub } from "./client-scope.ts";
import type { Context } from "./context.ts";
import { toHttpFailure } from "./error-response.ts";
import { sendFailure } from "./rest-bridge.ts";

function lastEventIdFrom(header: string | string[] | undefined): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * `GET /api/client/streaming` (the Node SDK's `mode: {type: "streaming"}`): server-sent events,
 * `unleash-connected` with a hydration, then `unleash-updated` with each change's events; event
 * ids are revisions, and a `Last-Event-ID` the server still has resumes without a hydration.
 */
export async function handleClientStreaming(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  try {
    req.resume();
    checkAccess(ctx.principal, "client");
    const query = clientQueryFrom(req.url);
    if (!ctx.deps.clientStreams) throw new NotFoundError("This server does not stream.");
    await ctx.deps.clientStreams.open(res, clientHub(ctx.deps, ctx.principal), query, lastEventIdFrom(req.headers["last-event-id"]));
  } catch (error) {
    const failure = toHttpFailure(error);
    if (failure.unexpected) ctx.log.error({ err: failure.unexpected, errorId: failure.body.id }, "unexpected error");
    sendFailure(res, failure);
  }
}
