import {
  ALL_PROJECTS,
  type ClientFeatureHub,
  createClientFeatureHub,
  type ClientFeatureSet,
  type ClientFeaturesQuery,
  loadClientFeatures,
  type Principal,
  type RenderedClientFeatures,
  renderClientFeatures,
} from "@vexil/services";
import type { ApiDeps } from "./context.ts";

/** An admin token has no environment of its own; it is served the first one, as in Unleash. */
const ADMIN_TOKEN_ENVIRONMENT = "development";

/** The environment and projects a caller of the client API is served (after checkAccess "client"). */
export function clientScope(principal: Principal): { environment: string; projects: string[] } {
  if (principal.kind === "sdk-token" && principal.environment !== "*") {
    return { environment: principal.environment, projects: principal.projects };
  }
  return { environment: ADMIN_TOKEN_ENVIRONMENT, projects: [ALL_PROJECTS] };
}

/** The features a scope is served: from the snapshots when the server keeps them, else read now. */
export function servedFeatures(deps: ApiDeps, principal: Principal): Promise<ClientFeatureSet> {
  const { environment, projects } = clientScope(principal);
  return deps.clientFeatures ? deps.clientFeatures.features(environment, projects) : loadClientFeatures(deps.db, environment, projects);
}

export async function renderedFeatures(deps: ApiDeps, principal: Principal, query: ClientFeaturesQuery): Promise<RenderedClientFeatures> {
  const { environment, projects } = clientScope(principal);
  if (deps.clientFeatures) return deps.clientFeatures.rendered(environment, projects, query);
  return renderClientFeatures(await loadClientFeatures(deps.db, environment, projects), query);
}

const SEGMENTS_SPEC = [4, 2, 0];

/** SDKs that send Unleash-Client-Spec 4.2.0 or later read segments at the top (U). */
export function readsSegmentsAtTop(specHeader: string | undefined): boolean {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(specHeader?.trim() ?? "");
  if (!match) return false;
  const version = match.slice(1, 4).map(Number);
  for (let i = 0; i < 3; i++) {
    if ((version[i] as number) !== SEGMENTS_SPEC[i]) return (version[i] as number) > (SEGMENTS_SPEC[i] as number);
  }
  return true;
}

/** The hub of a caller's scope: the server's, else one made for this request (it starts from nothing). */
export function clientHub(deps: ApiDeps, principal: Principal): ClientFeatureHub {
  const { environment, projects } = clientScope(principal);
  return (
    deps.clientFeatureHubs?.hubFor(environment, projects) ??
    createClientFeatureHub(() => loadClientFeatures(deps.db, environment, projects))
  );
}
