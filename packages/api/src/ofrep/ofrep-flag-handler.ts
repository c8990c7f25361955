import { NotFoundError, ofrepEvaluation, pollEtag } from "@vexil/services";
import { clientScope } from "../client-scope.ts";
import { pollAbout } from "../poll-answer.ts";
import { createPollMemo, stillHolds } from "../poll-memo.ts";
import type { RawHandler } from "../trpc.ts";
import { ofrepCallerKey, ofrepRequestContext } from "./ofrep-evaluate.ts";

// A server's provider asks for the same flag with the same context again and again: its answers, by caller, flag and body.
const asked = createPollMemo();

/**
 * `POST /ofrep/v1/evaluate/flags/{key}` over REST (docs/ofrep.md#ofrep): raw, so that the
 * body is read as OFREP sends it (any JSON, a PARSE_ERROR when it is no object) and its failures
 * leave in OFREP's body. An answer the poll ETag says cannot differ (the same snapshot, scope and
 * context, no random draw, no date constraint) is kept and sent again for the same request
 * (docs/sdk-protocols.md#poll-etags).
 */
export const handleOfrepFlag: RawHandler = async (_req, res, ctx, { params, body, text }) => {
  const flagKey = params.key as string;
  const key = text === undefined ? undefined : asked.keyOf(`${ofrepCallerKey(ctx)}\u0000${flagKey}`, text);
  const seen = asked.get(key);
  const scope = clientScope(ctx.principal);
  const snapshot = await ctx.deps.servedFeatures.frontend(scope);
  const { dependencies } = snapshot;
  let answer: Buffer;
  if (stillHolds(seen, dependencies, scope) && seen.answer) answer = seen.answer;
  else {
    const context = seen ? seen.context : ofrepRequestContext(ctx, body);
    const flag = snapshot.evaluator().evaluateFlag(flagKey, context);
    if (!flag) throw new NotFoundError(`There is no flag "${flagKey}" for this token.`);
    answer = Buffer.from(JSON.stringify(ofrepEvaluation(flag)));
    const etag = pollEtag(dependencies, context, pollAbout("ofrep-flag", scope, flagKey));
    asked.set(key, {
      context,
      dependencies,
      environment: scope.environment,
      projects: scope.projects,
      etag,
      ...(etag === undefined ? {} : { answer }),
    });
  }
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": answer.length });
  res.end(answer);
};
