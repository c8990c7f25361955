import { ALL_PROJECTS, type ClientScope, type Principal } from "@vexil/services";

/** An admin token has no environment of its own; it is served the first one, as in Unleash. */
const ADMIN_TOKEN_ENVIRONMENT = "development";

/** The environment and projects a caller of the client or frontend API is served (after its access check). */
// One array, so that the read model keys an admin token's scope once (it keys scopes by their project list).
const EVERY_PROJECT = [ALL_PROJECTS];

export function clientScope(principal: Principal): ClientScope {
  if (principal.kind === "sdk-token") {
    // A token stored with environment `*` (no longer made) keeps its projects.
    const environment = principal.environment === "*" ? ADMIN_TOKEN_ENVIRONMENT : principal.environment;
    return { environment, projects: principal.projects };
  }
  return { environment: ADMIN_TOKEN_ENVIRONMENT, projects: EVERY_PROJECT };
}

const SEGMENTS_SPEC = [4, 2, 0];

/** SDKs that send Unleash-Client-Spec 4.2.0 or later read segments at the top (docs/sdk-protocols.md#client-features). */
export function readsSegmentsAtTop(specHeader: string | undefined): boolean {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(specHeader?.trim() ?? "");
  if (!match) return false;
  const version = match.slice(1, 4).map(Number);
  for (let i = 0; i < 3; i++) {
    if ((version[i] as number) !== SEGMENTS_SPEC[i]) return (version[i] as number) > (SEGMENTS_SPEC[i] as number);
  }
  return true;
}
