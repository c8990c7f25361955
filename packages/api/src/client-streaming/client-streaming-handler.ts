import type { HydrationEvent } from "@vexil/services";
import { clientScope } from "../client-scope.ts";
import { credentialTags } from "../credential-tags.ts";
import type { ProtectedContext } from "../context.ts";
import { sendJson } from "../rest-bridge.ts";
import type { RawHandler } from "../trpc.ts";
import { type ClientQuery, clientQueryFrom, narrowHydration } from "../client-query.ts";

function lastEventIdFrom(header: string | string[] | undefined): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** Whether the caller asked for JSON and not for events (SDKs send `Accept: text/event-stream`; none or any gets events). */
function wantsJson(accept: string | undefined): boolean {
  return !!accept && /\bapplication\/json\b/.test(accept) && !/\btext\/event-stream\b/.test(accept);
}

/** The delta and streaming routes as one JSON answer (over tRPC, or to a JSON-only caller): the scope's hydration, narrowed. */
export async function firstHydration(ctx: ProtectedContext, query: ClientQuery): Promise<{ events: HydrationEvent[] }> {
  const hub = ctx.deps.servedFeatures.hub(clientScope(ctx.principal));
  await hub.ready();
  return { events: [narrowHydration(hub.hydration(), query)] };
}

/**
 * `GET /api/client/streaming` over REST (the Node SDK's `experimentalMode: {type: "streaming"}`): server-sent events,
 * `unleash-connected` with a hydration, then `unleash-updated` with each change's events; event
 * ids are revisions, and a `Last-Event-ID` the server still has resumes without a hydration.
 */
export const handleClientStreaming: RawHandler = async (req, res, ctx) => {
  const query = clientQueryFrom(req.url);
  // A JSON client (the typed REST client) gets the stream's first event's data, as over tRPC.
  if (wantsJson(req.headers.accept)) return sendJson(res, 200, await firstHydration(ctx, query));
  const hub = ctx.deps.servedFeatures.hub(clientScope(ctx.principal));
  await ctx.deps.clientStreams.open(res, hub, query, lastEventIdFrom(req.headers["last-event-id"]), credentialTags(ctx.principal));
};
