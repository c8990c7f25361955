import {
  type FrontendContext,
  NotFoundError,
  type OfrepEvaluation,
  ofrepEvaluation,
  unleashContextFromOfrep,
  ValidationError,
} from "@vexil/services";
import { clientScope } from "../client-scope.ts";
import type { ProtectedContext } from "../context.ts";

/**
 * The Unleash context of an OFREP request body `{context}` (docs/ofrep.md#ofrep). A body
 * that is no object is a PARSE_ERROR; other fields beside `context` are left alone, as OFREP may
 * add some. A browser's provider (a frontend token) is the frontend API's caller: without a
 * `remoteAddress` the request's own address stands in; a server's is given nothing.
 */
export function ofrepRequestContext(ctx: ProtectedContext, body: unknown): FrontendContext {
  if (body !== undefined && (body === null || typeof body !== "object" || Array.isArray(body))) {
    throw new ValidationError('The request body must be a JSON object, {"context": {...}}.', [{ path: "", message: "expected an object" }]);
  }
  const context = unleashContextFromOfrep((body as { context?: unknown } | undefined)?.context);
  const browser = ctx.principal.kind === "sdk-token" && ctx.principal.type === "frontend";
  return browser && !context.remoteAddress ? { ...context, remoteAddress: ctx.ip } : context;
}

/**
 * Who asked, as far as an OFREP answer depends on it besides the body: the caller (its scope, its
 * event stream, whether its address stands in for a missing `remoteAddress`) and its address.
 */
export function ofrepCallerKey(ctx: ProtectedContext): string {
  const who = ctx.principal.kind === "user" ? `user:${ctx.principal.userId}` : `${ctx.principal.kind}:${ctx.principal.tokenId}`;
  return `${who}\u0000${ctx.ip}`;
}

/** One flag of the token's scope for the body's context, by the frontend API's evaluator; a flag outside the scope is FLAG_NOT_FOUND. */
export async function ofrepFlag(ctx: ProtectedContext, key: string, body: unknown): Promise<OfrepEvaluation> {
  const context = ofrepRequestContext(ctx, body);
  const evaluator = await ctx.deps.servedFeatures.frontendEvaluator(clientScope(ctx.principal));
  const flag = evaluator.evaluateFlag(key, context);
  if (!flag) throw new NotFoundError(`There is no flag "${key}" for this token.`);
  return ofrepEvaluation(flag);
}

/** Every flag of the token's scope for the body's context, on or off. */
export async function ofrepFlags(ctx: ProtectedContext, body: unknown): Promise<OfrepEvaluation[]> {
  const context = ofrepRequestContext(ctx, body);
  const evaluator = await ctx.deps.servedFeatures.frontendEvaluator(clientScope(ctx.principal));
  return evaluator.evaluateEvery(context).map(ofrepEvaluation);
}
