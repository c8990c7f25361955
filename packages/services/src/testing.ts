// What the tests of Vexil's packages read besides the production entry point: internals they check directly.
export type { LoginLimits } from "./auth/login-throttle.ts";
export { applyJsonPatch } from "./features/apply-json-patch.ts";
export type { FeatureEnvironmentPath } from "./features/locate-feature-environment.ts";
export { loadChangeRequests } from "./change-requests/change-request.ts";
export { requireChangeRequest } from "./change-requests/require-change-request.ts";
export type { StateChange } from "./change-requests/move-change-request.ts";
export { loadClientFeatures } from "./client-features/load-client-features.ts";
export { createClientScopeHub } from "./client-streaming/client-scope-hub.ts";
export { featureSearchResultStatements } from "./feature-search/feature-search-result.ts";
export { featureSearchStatement } from "./feature-search/search-features.ts";
