import { type FrontendContext, type FrontendToggle, frontendEvaluatorFor, type Principal } from "@vexil/services";
import { servedFeatures } from "./client-scope.ts";
import type { ApiDeps } from "./context.ts";

/**
 * The flags on for a browser's context, from the snapshot its token is served (client-scope: a
 * frontend token's environment and projects; an admin token's "development" and every project).
 * Without a remoteAddress the request's own address stands in, as in Unleash.
 */
export async function frontendToggles(
  deps: ApiDeps,
  principal: Principal,
  ip: string,
  context: FrontendContext,
): Promise<FrontendToggle[]> {
  const set = await servedFeatures(deps, principal);
  return frontendEvaluatorFor(set).evaluate(context.remoteAddress ? context : { ...context, remoteAddress: ip });
}
