import type { IncomingMessage, ServerResponse } from "node:http";
import { type FrontendContext, plainFrontendContext, pollEtag } from "@vexil/services";
import { clientScope } from "./client-scope.ts";
import type { ProtectedContext } from "./context.ts";
import { contextFromQuery } from "./frontend-query.ts";
import { withCallerAddress } from "./frontend-toggles.ts";
import { answerPoll, pollAbout } from "./poll-answer.ts";
import { createPollMemo, stillHolds } from "./poll-memo.ts";
import { frontendContextInputSchema, frontendRequestSchema } from "./schemas/frontend.ts";
import type { RawHandler } from "./trpc.ts";

/**
 * Browsers poll: an unchanged answer is a 304 with no body, which a procedure has no way to say,
 * told from the poll ETag before anything is evaluated (docs/sdk-protocols.md#poll-etags).
 */
async function sendToggles(req: IncomingMessage, res: ServerResponse, ctx: ProtectedContext, given: FrontendContext): Promise<void> {
  const scope = clientScope(ctx.principal);
  const snapshot = await ctx.deps.servedFeatures.frontend(scope);
  const context = withCallerAddress(ctx, given);
  const etag = pollEtag(snapshot.dependencies, context, pollAbout("frontend", scope));
  answerPoll(req, res, etag, () => snapshot.evaluator().evaluateBody(context));
}

// The browsers' polls of this process (contexts are a function of the query and the address alone).
const polls = createPollMemo();

/**
 * `GET /api/frontend` (docs/sdk-protocols.md#frontend-api) over REST: the context is the query, `properties[name]` as
 * unleash-proxy-client writes it. A repeated poll's context and ETag come from the memo of polls.
 */
export const handleFrontendQuery: RawHandler = async (req, res, ctx) => {
  const url = req.url ?? "/";
  const queryAt = url.indexOf("?");
  const query = queryAt === -1 ? "" : url.slice(queryAt + 1);
  const key = polls.keyOf(ctx.ip, query);
  const seen = polls.get(key);
  let context: FrontendContext;
  if (seen) context = seen.context;
  else {
    const given = query === "" ? {} : contextFromQuery(query);
    context = withCallerAddress(ctx, plainFrontendContext(given) ?? frontendContextInputSchema.parse(given));
  }
  const scope = clientScope(ctx.principal);
  const snapshot = await ctx.deps.servedFeatures.frontend(scope);
  const { dependencies } = snapshot;
  let etag: string | undefined;
  if (stillHolds(seen, dependencies, scope)) {
    etag = seen.etag;
  } else {
    etag = pollEtag(dependencies, context, pollAbout("frontend", scope));
    polls.set(key, { context, dependencies, environment: scope.environment, projects: scope.projects, etag });
  }
  answerPoll(req, res, etag, () => snapshot.evaluator().evaluateBody(context));
};

/** `POST /api/frontend` (docs/sdk-protocols.md#frontend-api) over REST: the context is the body's `{context}`. */
export const handleFrontendEvaluation: RawHandler = async (req, res, ctx, { body }) => {
  await sendToggles(req, res, ctx, frontendRequestSchema.parse(body ?? {}).context ?? {});
};
