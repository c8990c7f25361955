export * from "./errors/domain-error.ts";
export * from "./auth/permissions.ts";
export * from "./auth/principal.ts";
export { appendEvent, type NewEvent } from "./events/append-event.ts";
export { listEvents, type EventPage, type StoredEvent } from "./events/list-events.ts";
export { listEnvironments, type Environment } from "./environments/list-environments.ts";
export { createEnvironment, type NewEnvironment } from "./environments/create-environment.ts";
export type { Project } from "./projects/project.ts";
export { listProjects } from "./projects/list-projects.ts";
export { requireProject } from "./projects/require-project.ts";
export { createProject, type NewProject } from "./projects/create-project.ts";
export { enableEnvironmentInProject } from "./projects/enable-environment-in-project.ts";
export { FEATURE_TYPES, type Feature, type FeatureType } from "./features/feature.ts";
export { createFeature, type NewFeature } from "./features/create-feature.ts";
export { listFeatures } from "./features/list-features.ts";
export { featureWithEnvironments, type FeatureEnvironment, type FeatureWithEnvironments } from "./features/feature-with-environments.ts";
export { isUrlSafeName, urlSafeName } from "./features/url-safe-name.ts";
export {
  PAYLOAD_TYPES,
  TOTAL_WEIGHT,
  type Variant,
  variantInputSchema,
  type VariantInput,
  variantsInputSchema,
  WEIGHT_TYPES,
} from "./features/variant.ts";
export { parseVariants } from "./features/parse-variants.ts";
export { applyJsonPatch, type JsonPatchOperation } from "./features/apply-json-patch.ts";
export type { FeatureEnvironmentPath } from "./features/locate-feature-environment.ts";
export { featureEnvironmentVariants } from "./features/feature-environment-variants.ts";
export { replaceFeatureEnvironmentVariants } from "./features/replace-feature-environment-variants.ts";
export { patchFeatureEnvironmentVariants } from "./features/patch-feature-environment-variants.ts";
export { BANNER_VARIANTS, type Banner, type BannerFields, type BannerVariant } from "./banners/banner.ts";
export { createBanner } from "./banners/create-banner.ts";
export { listBanners } from "./banners/list-banners.ts";
export { updateBanner, type BannerChanges } from "./banners/update-banner.ts";
export { setBannerEnabled } from "./banners/set-banner-enabled.ts";
export { deleteBanner } from "./banners/delete-banner.ts";
export { forgetExpiredAuthRecords } from "./auth/forget-expired-auth-records.ts";
export type { PasswordHasher } from "./auth/password-hasher.ts";
export {
  DEFAULT_SESSION_POLICY,
  endSession,
  lookUpSessionPrincipal,
  type SessionPolicy,
} from "./auth/sessions.ts";
export {
  type ApiToken,
  type ApiTokenType,
  createApiToken,
  createPersonalToken,
  deleteApiToken,
  ensureInitialAdminTokens,
  deletePersonalToken,
  lookUpTokenPrincipal,
  listApiTokens,
  listPersonalTokens,
  type NewApiToken,
} from "./auth/api-tokens.ts";
export { DEFAULT_LOGIN_LIMITS, type LoginLimits } from "./auth/login-throttle.ts";
export { login, type LoginAttempt, type LoginPolicy } from "./auth/login.ts";
export { toUser, type User } from "./users/user.ts";
export { createUser, type NewUser } from "./users/create-user.ts";
export { listUsers } from "./users/list-users.ts";
export { changeOwnPassword, changePassword } from "./users/change-password.ts";
export { deleteUser } from "./users/delete-user.ts";
export { ensureAdminUser } from "./users/ensure-admin-user.ts";
export { setFeatureEnvironmentEnabled } from "./features/set-feature-environment-enabled.ts";
export {
  CHANGE_REQUEST_STATES,
  type ChangeRequestState,
  type ChangeRequestView,
  loadChangeRequests,
  PENDING_STATES,
} from "./change-requests/change-request.ts";
export {
  changeRequestConfig,
  type ChangeRequestConfig,
  setChangeRequestConfig,
} from "./change-requests/change-request-settings.ts";
export { addChange, CHANGE_ACTIONS, type ChangeAction, type NewChange } from "./change-requests/add-change.ts";
export { requireChangeRequest } from "./change-requests/require-change-request.ts";
export { allowedMoves, type MoveSubject, moveRefusal, TRANSITIONS } from "./change-requests/allowed-moves.ts";
export { getChangeRequest } from "./change-requests/get-change-request.ts";
export { moveChangeRequest, type StateChange } from "./change-requests/move-change-request.ts";
export { pendingChangeRequestsFor } from "./change-requests/pending-change-requests.ts";
export {
  runDueChangeRequests,
  SCHEDULED_APPLY_MAX_ATTEMPTS,
  type ScheduledApplyRetry,
  type SchedulerOptions,
  type SchedulerOutcome,
} from "./change-requests/run-due-change-requests.ts";
export { updateFeature, type FeatureChanges } from "./features/update-feature.ts";
export { CONSTRAINT_OPERATORS, type Constraint, constraintInputSchema, type ConstraintOperator } from "./strategies/constraint.ts";
export { type FeatureStrategy, type StrategyInput, strategyInputSchema, type StrategyVariant } from "./strategies/feature-strategy.ts";
export { BUILT_IN_STRATEGIES, newStrategyTypeSchema, type StrategyType } from "./strategies/strategy-type.ts";
export { listStrategyTypes } from "./strategies/list-strategy-types.ts";
export { createStrategyType } from "./strategies/create-strategy-type.ts";
export { getFeatureStrategy, listFeatureStrategies } from "./strategies/list-feature-strategies.ts";
export { addFeatureStrategy, deleteFeatureStrategy, updateFeatureStrategy } from "./strategies/write-feature-strategy.ts";
export { type Segment, segmentInputSchema } from "./segments/segment.ts";
export { getSegment, listSegments } from "./segments/list-segments.ts";
export { createSegment, deleteSegment, updateSegment } from "./segments/write-segment.ts";
export { dependencyInputSchema, type FeatureDependency } from "./dependencies/feature-dependency.ts";
export { addFeatureDependency, deleteFeatureDependency } from "./dependencies/write-feature-dependency.ts";
export type { ClientFeature, ClientFeatureSet, ClientSegment, ClientStrategy } from "./client-features/client-feature.ts";
export { ALL_PROJECTS, loadClientFeatures } from "./client-features/load-client-features.ts";
export {
  clientFeatureFrom,
  type ClientFeaturesQuery,
  type RenderedClientFeatures,
  renderClientFeatures,
} from "./client-features/render-client-features.ts";
export {
  type ClientScope,
  createServedFeatures,
  FLAG_CHANGES_CHANNEL,
  type ServedFeatures,
  type ServedFeaturesOptions,
} from "./client-features/served-features.ts";
export { clientMetricsSchema, clientRegistrationSchema } from "./client-metrics/client-metrics-input.ts";
export { registerClient } from "./client-metrics/register-client.ts";
export { type ClientMetricsBuffer, createClientMetricsBuffer, type MetricCounts } from "./client-metrics/client-metrics-buffer.ts";
export { storeClientMetrics } from "./client-metrics/store-client-metrics.ts";
export {
  type ClientApplication,
  featureMetricsRaw,
  type FeatureMetricsRow,
  listClientApplications,
} from "./client-metrics/read-client-metrics.ts";
export {
  CONTEXT_FIELDS,
  type FrontendContext,
  type FrontendContextInput,
  frontendContextSchema,
  MAX_CONTEXT_PROPERTIES,
  MAX_CONTEXT_VALUE,
} from "./frontend-evaluation/frontend-context.ts";
export {
  createFrontendEvaluator,
  type FrontendEvaluator,
  type FrontendToggle,
  type FrontendVariant,
} from "./frontend-evaluation/frontend-evaluator.ts";
export type { ClientDelta, ClientDeltaEvent, HydrationEvent } from "./client-streaming/client-delta-event.ts";
export {
  type ClientFeatureUpdate,
  type ClientScopeHub,
  createClientScopeHub,
  DEFAULT_HISTORY,
} from "./client-streaming/client-scope-hub.ts";
