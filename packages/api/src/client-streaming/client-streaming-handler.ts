import type { IncomingMessage, ServerResponse } from "node:http";
import { NotFoundError } from "@vexil/services";
import { checkAccess } from "../access.ts";
import { clientQueryFrom, narrowHydration } from "./client-query.ts";
import { clientHub } from "../client-scope.ts";
import type { Context } from "../context.ts";
import { sendError, sendJson } from "../rest-bridge.ts";

function lastEventIdFrom(header: string | string[] | undefined): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** Whether the caller asked for JSON and not for events (SDKs send `Accept: text/event-stream`; none or any gets events). */
function wantsJson(accept: string | undefined): boolean {
  return !!accept && /\bapplication\/json\b/.test(accept) && !/\btext\/event-stream\b/.test(accept);
}

/**
 * `GET /api/client/streaming` (the Node SDK's `experimentalMode: {type: "streaming"}`): server-sent events,
 * `unleash-connected` with a hydration, then `unleash-updated` with each change's events; event
 * ids are revisions, and a `Last-Event-ID` the server still has resumes without a hydration.
 */
export async function handleClientStreaming(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  try {
    req.resume();
    checkAccess(ctx.principal, "client");
    const query = clientQueryFrom(req.url);
    const hub = clientHub(ctx.deps, ctx.principal);
    if (wantsJson(req.headers.accept)) {
      // A JSON client (the typed REST client) gets the stream's first event's data, as over tRPC.
      await hub.ready();
      return sendJson(res, 200, { events: [narrowHydration(hub.hydration(), query)] });
    }
    if (!ctx.deps.clientStreams) throw new NotFoundError("This server does not stream.");
    await ctx.deps.clientStreams.open(res, hub, query, lastEventIdFrom(req.headers["last-event-id"]));
  } catch (error) {
    sendError(res, ctx.log, error);
  }
}
