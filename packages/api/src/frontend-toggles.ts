import type { FrontendContext, FrontendToggle } from "@vexil/services";
import { clientScope } from "./client-scope.ts";
import type { ProtectedContext } from "./context.ts";

/** The context a browser is evaluated for: without a remoteAddress the request's own address stands in, as in Unleash. */
export const withCallerAddress = (ctx: ProtectedContext, context: FrontendContext): FrontendContext =>
  context.remoteAddress ? context : { ...context, remoteAddress: ctx.ip };

/**
 * The flags on for a browser's context, from the snapshot its token is served (client-scope: a
 * frontend token's environment and projects; an admin token's "development" and every project).
 */
export async function frontendToggles(ctx: ProtectedContext, context: FrontendContext): Promise<FrontendToggle[]> {
  const evaluator = await ctx.deps.servedFeatures.frontendEvaluator(clientScope(ctx.principal));
  return evaluator.evaluate(withCallerAddress(ctx, context));
}
