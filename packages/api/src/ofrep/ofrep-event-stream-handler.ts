import type { ServerResponse } from "node:http";
import { type ClientScope, NotFoundError, ofrepStreamToken, ServiceUnavailable } from "@vexil/services";
import { clientScope } from "../client-scope.ts";
import { credentialTags } from "../credential-tags.ts";
import type { Context } from "../context.ts";
import type { RawHandler } from "../trpc.ts";
import { tokenIdOfTicket } from "./ofrep-stream-ticket.ts";

const SSE_HEADERS = { "content-type": "text/event-stream", "x-accel-buffering": "no", connection: "keep-alive" };
/** OFREP 0.3's one event: the provider fetches the bulk evaluation again (with its ETag, so an unchanged answer is a 304). */
const REFETCH = `data: ${JSON.stringify({ type: "refetchEvaluation" })}\n\n`;

/** The scope an event stream's ticket opens: its token's, while the token exists; else there is no such stream (404). */
export async function ofrepStreamScope(ctx: Context, ticket: string): Promise<ClientScope> {
  return clientScope(await ofrepStreamPrincipal(ctx, ticket));
}

async function ofrepStreamPrincipal(ctx: Context, ticket: string) {
  const tokenId = tokenIdOfTicket(ctx.deps.cookies.secret, ticket);
  const principal = tokenId === null ? null : await ofrepStreamToken(ctx.db, tokenId);
  if (!principal) throw new NotFoundError("There is no such event stream: its token is gone, or the URL was not given by this server.");
  return principal;
}

/**
 * `GET /ofrep/v1/event-stream/{ticket}` (docs/ofrep.md#ofrep): the SSE URL of the bulk
 * answer's `eventStreams`. It sends `refetchEvaluation` whenever what the token's scope is served
 * changes, on any instance, from the same per-scope hub as SDK streaming; each event's id is the
 * revision it follows. It counts among the instance's streams (heartbeats, the limit, shutdown).
 */
export const handleOfrepEventStream: RawHandler = async (_req, res: ServerResponse, ctx, { params }) => {
  const principal = await ofrepStreamPrincipal(ctx, params.ticket as string);
  const hub = ctx.deps.servedFeatures.hub(clientScope(principal));
  await hub.ready();
  if (res.destroyed) return;
  if (!ctx.deps.clientStreams.hold(res, credentialTags(principal))) {
    throw new ServiceUnavailable("This instance holds as many streams as it may; poll the bulk evaluation instead.");
  }
  res.writeHead(200, SSE_HEADERS);
  res.write(": connected\n\n");
  // Ended (a revoked token) before it closed: nothing more is written.
  const unsubscribe = hub.subscribe((update) => !res.writableEnded && res.write(`id: ${update.revision}\n${REFETCH}`));
  res.on("close", unsubscribe);
};
