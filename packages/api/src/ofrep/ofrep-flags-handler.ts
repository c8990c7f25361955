import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { ofrepEvaluation, pollEtag } from "@vexil/services";
import { clientScope } from "../client-scope.ts";
import type { ProtectedContext } from "../context.ts";
import { answerPoll, pollAbout } from "../poll-answer.ts";
import type { RawHandler } from "../trpc.ts";
import { ofrepRequestContext } from "./ofrep-evaluate.ts";
import { ofrepStreamTicket } from "./ofrep-stream-ticket.ts";

/** The origin the caller reached: its Host, and the scheme a proxy says it was asked in (the answer goes back to that caller only). */
function requestOrigin(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  if (!host) return undefined;
  const forwarded = String(req.headers["x-forwarded-proto"] ?? "")
    .split(",")[0]
    ?.trim();
  const scheme = forwarded === "https" || forwarded === "http" ? forwarded : (req.socket as TLSSocket).encrypted ? "https" : "http";
  return `${scheme}://${host}`;
}

/** OFREP 0.3's `eventStreams`: the SSE URL that tells this token's providers when its flags change. */
function eventStreams(req: IncomingMessage, ctx: ProtectedContext): { type: "sse"; url: string }[] {
  const origin = requestOrigin(req);
  if (!origin || !("tokenId" in ctx.principal)) return [];
  return [{ type: "sse", url: `${origin}/ofrep/v1/event-stream/${ofrepStreamTicket(ctx.deps.cookies.secret, ctx.principal.tokenId)}` }];
}

/**
 * `POST /ofrep/v1/evaluate/flags` over REST (docs/sdk-protocols.md#ofrep): every flag of the
 * token's scope for the context, with `eventStreams`. The ETag is the poll ETag
 * (docs/sdk-protocols.md#poll-etags), so a matching If-None-Match is a 304 before anything is evaluated.
 */
export const handleOfrepFlags: RawHandler = async (req, res, ctx, { body }) => {
  const context = ofrepRequestContext(ctx, body);
  const scope = clientScope(ctx.principal);
  const snapshot = await ctx.deps.servedFeatures.frontend(scope);
  const streams = eventStreams(req, ctx);
  const etag = pollEtag(snapshot.dependencies, context, pollAbout("ofrep", scope, JSON.stringify(streams)));
  answerPoll(req, res, etag, () => {
    const flags = snapshot.evaluator().evaluateEvery(context).map(ofrepEvaluation);
    return Buffer.from(JSON.stringify(streams.length ? { flags, eventStreams: streams } : { flags }));
  });
};
