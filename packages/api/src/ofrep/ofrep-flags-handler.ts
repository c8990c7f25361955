import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { ofrepEvaluation, pollEtag } from "@vexil/services";
import { clientScope } from "../client-scope.ts";
import type { ProtectedContext } from "../context.ts";
import { answerPoll, pollAbout } from "../poll-answer.ts";
import { createPollMemo, stillHolds } from "../poll-memo.ts";
import type { RawHandler } from "../trpc.ts";
import { ofrepCallerKey, ofrepRequestContext } from "./ofrep-evaluate.ts";
import { ofrepStreamTicket } from "./ofrep-stream-ticket.ts";

/** The origin the caller reached: its Host, and the scheme a proxy says it was asked in (the answer goes back to that caller only). */
function requestOrigin(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  if (!host) return undefined;
  const proto = req.headers["x-forwarded-proto"];
  const forwarded = proto === undefined ? undefined : String(proto).split(",")[0]?.trim();
  const scheme = forwarded === "https" || forwarded === "http" ? forwarded : (req.socket as TLSSocket).encrypted ? "https" : "http";
  return `${scheme}://${host}`;
}

/** OFREP 0.3's `eventStreams`: the SSE URL that tells this token's providers when its flags change. */
function eventStreams(origin: string | undefined, ctx: ProtectedContext): { type: "sse"; url: string }[] {
  if (!origin || ctx.principal.kind === "user") return [];
  return [{ type: "sse", url: `${origin}/ofrep/v1/event-stream/${ofrepStreamTicket(ctx.deps.cookies.secret, ctx.principal.tokenId)}` }];
}

// The providers' bulk polls of this process, by caller and body (docs/sdk-protocols.md#poll-etags).
const polls = createPollMemo();

/**
 * `POST /ofrep/v1/evaluate/flags` over REST (docs/ofrep.md#ofrep): every flag of the
 * token's scope for the context, with `eventStreams`. The ETag is the poll ETag
 * (docs/sdk-protocols.md#poll-etags), so a matching If-None-Match is a 304 before anything is
 * evaluated; a repeated poll (the same caller and body) takes its context and ETag from the memo.
 */
export const handleOfrepFlags: RawHandler = async (req, res, ctx, { body, text }) => {
  const origin = requestOrigin(req);
  const key = text === undefined ? undefined : polls.keyOf(`${ofrepCallerKey(ctx)}\u0000${origin ?? ""}`, text);
  const seen = polls.get(key);
  const context = seen ? seen.context : ofrepRequestContext(ctx, body);
  const scope = clientScope(ctx.principal);
  const snapshot = await ctx.deps.servedFeatures.frontend(scope);
  const { dependencies } = snapshot;
  let etag: string | undefined;
  if (stillHolds(seen, dependencies, scope)) etag = seen.etag;
  else {
    etag = pollEtag(dependencies, context, pollAbout("ofrep", scope, JSON.stringify(eventStreams(origin, ctx))));
    polls.set(key, { context, dependencies, environment: scope.environment, projects: scope.projects, etag });
  }
  answerPoll(req, res, etag, () => {
    const flags = snapshot.evaluator().evaluateEvery(context).map(ofrepEvaluation);
    const streams = eventStreams(origin, ctx);
    return Buffer.from(JSON.stringify(streams.length ? { flags, eventStreams: streams } : { flags }));
  });
};
