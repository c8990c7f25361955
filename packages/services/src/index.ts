// Errors, permissions and who is calling.
export * from "./errors/domain-error.ts";
export { detailsSentence, issueDetail } from "./errors/issue-sentence.ts";
export * from "./auth/permissions.ts";
export * from "./auth/principal.ts";
export { forgetExpiredAuthRecords } from "./auth/forget-expired-auth-records.ts";
export type { PasswordHasher } from "./auth/password-hasher.ts";
export {
  DEFAULT_SESSION_POLICY,
  endSession,
  lookUpSessionPrincipal,
  type SessionPolicy,
} from "./auth/sessions.ts";
export {
  createApiToken,
  createPersonalToken,
  deleteApiToken,
  ensureInitialAdminTokens,
  deletePersonalToken,
  lookUpTokenPrincipal,
  listApiTokens,
  listPersonalTokens,
} from "./auth/api-tokens.ts";
export { DEFAULT_LOGIN_LIMITS } from "./auth/login-throttle.ts";
export { DEFAULT_ADMIN_PASSWORD, login, type LoginPolicy } from "./auth/login.ts";

// Users, groups, project roles, OIDC and SCIM.
export { createUser } from "./users/create-user.ts";
export { listUsers } from "./users/list-users.ts";
export { changeOwnPassword, changePassword } from "./users/change-password.ts";
export { deleteUser } from "./users/delete-user.ts";
export { ensureAdminUser } from "./users/ensure-admin-user.ts";
export { adminPassword, replaceDefaultAdminPassword } from "./users/default-admin-password.ts";
export { checkPasswordPolicy } from "./users/password-policy.ts";
export { currentUser } from "./users/current-user.ts";
export { getGroup, listGroups } from "./groups/group.ts";
export { ROLES } from "./project-roles/role.ts";
export { getProjectAccess } from "./project-roles/project-access.ts";
export { permissionsInProject } from "./project-roles/permissions-in-project.ts";
export { addProjectRoleAccess, removeProjectRoles, setProjectRoles } from "./project-roles/change-project-access.ts";
export type { OidcSettings } from "./oidc/oidc-settings.ts";
export { createOidcClient } from "./oidc/oidc-client.ts";
export type { OidcSignIn } from "./oidc/oidc-sign-in.ts";
export { startOidcLogin } from "./oidc/start-oidc-login.ts";
export { finishOidcLogin } from "./oidc/finish-oidc-login.ts";
export { ScimRefusal } from "./scim/scim-refusal.ts";
export { USER_SCHEMA } from "./scim/scim-user.ts";
export { GROUP_SCHEMA } from "./scim/scim-group.ts";
export {
  createScimUser,
  deleteScimUser,
  getScimUser,
  listScimUsers,
  patchScimUser,
  replaceScimUser,
  SCIM_MAX_RESULTS,
} from "./scim/provision-users.ts";
export {
  createScimGroup,
  deleteScimGroup,
  getScimGroup,
  listScimGroups,
  patchScimGroup,
  replaceScimGroup,
  type ScimGroupView,
} from "./scim/provision-groups.ts";

// Projects and environments.
export { listProjects } from "./projects/list-projects.ts";
export { createProject } from "./projects/create-project.ts";
export { enableEnvironmentInProject } from "./projects/enable-environment-in-project.ts";
export { projectHealthReport } from "./projects/project-health-report.ts";
export { listEnvironments } from "./environments/list-environments.ts";
export { createEnvironment } from "./environments/create-environment.ts";

// Flags: create, edit, variants, archive, lifecycle, tags and dependencies.
export { createFeature } from "./features/create-feature.ts";
export { listFeatures } from "./features/list-features.ts";
export { featureWithEnvironments } from "./features/feature-with-environments.ts";
export { urlSafeName } from "./features/url-safe-name.ts";
export {
  PAYLOAD_TYPES,
  type Variant,
  variantInputSchema,
  type VariantInput,
  WEIGHT_TYPES,
} from "./features/variant.ts";
export type { JsonPatchOperation } from "./features/apply-json-patch.ts";
export { featureEnvironmentVariants } from "./features/feature-environment-variants.ts";
export { replaceFeatureEnvironmentVariants } from "./features/replace-feature-environment-variants.ts";
export { patchFeatureEnvironmentVariants } from "./features/patch-feature-environment-variants.ts";
export { setFeatureEnvironmentEnabled } from "./features/set-feature-environment-enabled.ts";
export { updateFeature } from "./features/update-feature.ts";
export { patchFeature } from "./features/patch-feature.ts";
export { getFeatureEnvironment } from "./features/feature-environment.ts";
export { validateFeatureName, validateFeatureNameSchema } from "./features/validate-feature-name.ts";
export { projectOfFeature } from "./features/project-of-feature.ts";
export { featureNamesSchema } from "./feature-archive/feature-names.ts";
export { archiveFeature, archiveFeatures } from "./feature-archive/archive-features.ts";
export { reviveFeature, reviveFeatures } from "./feature-archive/revive-features.ts";
export { deleteArchivedFeature, deleteArchivedFeatures } from "./feature-archive/delete-features.ts";
export { validateArchiveFeatures } from "./feature-archive/validate-archive-features.ts";
export { cloneFeature, cloneFeatureSchema } from "./feature-clone/clone-feature.ts";
export { bulkSetFeaturesEnabled, bulkToggleSchema } from "./feature-bulk-toggle/bulk-set-features-enabled.ts";
export { markFeaturesStale } from "./feature-staleness/mark-features-stale.ts";
export { markPotentiallyStaleFlags } from "./feature-staleness/reassess-potentially-stale.ts";
export { listFeatureTypes } from "./feature-types/list-feature-types.ts";
export { updateFeatureTypeLifetime } from "./feature-types/update-feature-type-lifetime.ts";
export { completedInputSchema, LIFECYCLE_STAGES } from "./feature-lifecycle/lifecycle-stage.ts";
export { featureLifecycle } from "./feature-lifecycle/feature-lifecycle.ts";
export { completeFeature, uncompleteFeature } from "./feature-lifecycle/complete-feature.ts";
export { lifecycleStageCount } from "./feature-lifecycle/lifecycle-stage-count.ts";
export { projectTagChangesSchema, tagChangesSchema, tagInputSchema } from "./tags/tag.ts";
export { tagTypeChangesSchema, tagTypeInputSchema } from "./tags/tag-type.ts";
export { getTagType, listTagTypes } from "./tags/list-tag-types.ts";
export { createTagType, deleteTagType, updateTagType, validateTagType } from "./tags/write-tag-type.ts";
export { getTag, listTags, listTagsOfType } from "./tags/list-tags.ts";
export { createTag, deleteTag } from "./tags/write-tag.ts";
export { listFeatureTags } from "./tags/feature-tags.ts";
export { addFeatureTag, removeFeatureTag, updateFeatureTags, updateProjectFeatureTags } from "./tags/write-feature-tags.ts";
export { dependencyInputSchema } from "./dependencies/feature-dependency.ts";
export { addFeatureDependency, deleteFeatureDependency } from "./dependencies/write-feature-dependency.ts";

// Strategies, segments and context fields.
export { CONSTRAINT_OPERATORS, constraintInputSchema, constraintsFromJson } from "./strategies/constraint.ts";
export { strategyInputSchema } from "./strategies/feature-strategy.ts";
export { newStrategyTypeSchema } from "./strategies/strategy-type.ts";
export { listStrategyTypes } from "./strategies/list-strategy-types.ts";
export { createStrategyType } from "./strategies/create-strategy-type.ts";
export { getFeatureStrategy, listFeatureStrategies } from "./strategies/list-feature-strategies.ts";
export { addFeatureStrategy, deleteFeatureStrategy, updateFeatureStrategy } from "./strategies/write-feature-strategy.ts";
export { patchFeatureStrategy, strategyPatchSchema } from "./strategies/patch-feature-strategy.ts";
export { setStrategySortOrder, strategySortOrderSchema } from "./strategies/set-strategy-sort-order.ts";
export { segmentInputSchema } from "./segments/segment.ts";
export { getSegment, listSegments } from "./segments/list-segments.ts";
export { createSegment, deleteSegment, updateSegment } from "./segments/write-segment.ts";
export { strategiesUsingSegment } from "./segments/strategies-using-segment.ts";
export { contextFieldChangesSchema, contextFieldInputSchema, legalValueSchema } from "./context-fields/context-field.ts";
export { getContextField, listContextFields, strategiesUsingContextField } from "./context-fields/list-context-fields.ts";
export {
  createContextField,
  deleteContextField,
  deleteLegalValue,
  updateContextField,
  upsertLegalValue,
  validateContextFieldName,
} from "./context-fields/write-context-field.ts";

// Change requests (docs/change-requests.md).
export { CHANGE_REQUEST_STATES, type ChangeRequestState } from "./change-requests/change-request.ts";
export {
  changeRequestConfig,
  setChangeRequestConfig,
} from "./change-requests/change-request-settings.ts";
export { addChange, CHANGE_ACTIONS, type ChangeAction } from "./change-requests/add-change.ts";
export { getChangeRequest } from "./change-requests/get-change-request.ts";
export { moveChangeRequest } from "./change-requests/move-change-request.ts";
export { pendingChangeRequestsFor } from "./change-requests/pending-change-requests.ts";
export { runDueChangeRequests } from "./change-requests/run-due-change-requests.ts";
export { changeRequestInbox } from "./change-request-inbox/change-request-inbox.ts";

// Serving SDKs: client API, streaming, frontend API, OFREP, metrics and usage.
export type { ClientFeature, ClientFeatureSet } from "./client-features/client-feature.ts";
export { ALL_PROJECTS } from "./client-features/load-client-features.ts";
export {
  clientFeatureFrom,
  renderClientFeatures,
} from "./client-features/render-client-features.ts";
export {
  type ClientScope,
  createServedFeatures,
  FLAG_CHANGES_CHANNEL,
  type ServedFeatures,
} from "./client-features/served-features.ts";
export type { ClientDeltaEvent, HydrationEvent } from "./client-streaming/client-delta-event.ts";
export type { ClientFeatureUpdate, ClientScopeHub } from "./client-streaming/client-scope-hub.ts";
export { createCompiledEvaluator } from "./compiled-evaluation/compiled-evaluator.ts";
export {
  CONTEXT_FIELDS,
  type FrontendContext,
  frontendContextSchema,
  plainFrontendContext,
} from "./frontend-evaluation/frontend-context.ts";
export { createFrontendEvaluator, type FrontendToggle } from "./frontend-evaluation/frontend-evaluator.ts";
export { bodyEtag, pollEtag } from "./frontend-evaluation/poll-etag.ts";
export type { EvaluationDependencies } from "./frontend-evaluation/evaluation-dependencies.ts";
export { unleashContextFromOfrep } from "./ofrep/ofrep-context.ts";
export { type OfrepEvaluation, ofrepEvaluation } from "./ofrep/ofrep-evaluation.ts";
export { ofrepStreamToken } from "./ofrep/ofrep-stream-token.ts";
export { clientMetricsSchema, clientRegistrationSchema } from "./client-metrics/client-metrics-input.ts";
export { registerClient } from "./client-metrics/register-client.ts";
export { type ClientMetricsBuffer, createClientMetricsBuffer } from "./client-metrics/client-metrics-buffer.ts";
export { storeClientMetrics } from "./client-metrics/store-client-metrics.ts";
export {
  featureMetricsRaw,
  listClientApplications,
} from "./client-metrics/read-client-metrics.ts";
export { rollUpClientMetrics } from "./client-metrics-retention/roll-up-client-metrics.ts";
export { clientApplication } from "./usage/client-application.ts";
export { featureUsage } from "./usage/feature-usage.ts";
export { listUnknownFlags } from "./usage/list-unknown-flags.ts";
export { pruneUnknownFlags } from "./usage/prune-unknown-flags.ts";

// The console's reads: search, events, banners and the playground.
export { featureSearchQuerySchema } from "./feature-search/feature-search-query.ts";
export { searchFeatures } from "./feature-search/search-features.ts";
export { listEvents } from "./events/list-events.ts";
export { type ConsoleEventHub, createConsoleEventHub } from "./console-events/console-event-hub.ts";
export { CONSOLE_EVENTS_CHANNEL, type ConsoleNotice } from "./console-events/console-notice.ts";
export { BANNER_VARIANTS, type Banner } from "./banners/banner.ts";
export { createBanner } from "./banners/create-banner.ts";
export { listBanners } from "./banners/list-banners.ts";
export { updateBanner } from "./banners/update-banner.ts";
export { setBannerEnabled } from "./banners/set-banner-enabled.ts";
export { deleteBanner } from "./banners/delete-banner.ts";
export {
  advancedPlaygroundRequestSchema,
  evaluateAdvancedPlayground,
  evaluatePlayground,
  playgroundRequestSchema,
} from "./playground/evaluate-playground.ts";

// Export and import (Unleash's features-batch).
export {
  featuresBatchExportQuerySchema,
  featuresBatchImportSchema,
} from "./features-batch/features-batch-document.ts";
export { exportFeatures } from "./features-batch/export-features.ts";
export { importFeatures, validateImport } from "./features-batch/import-features.ts";
export { inSavepoint } from "./transactions/in-savepoint.ts";

// Integrations (docs/webhooks.md).
export { ADDON_PROVIDER_NAMES, ADDON_PROVIDERS } from "./addons/addon-providers.ts";
export { addonView } from "./addons/addon.ts";
export { getAddon, listAddons } from "./addons/list-addons.ts";
export { createAddon, deleteAddon, updateAddon } from "./addons/write-addon.ts";
export { listAddonDeliveries } from "./addons/list-addon-deliveries.ts";
export {
  ADDON_DELIVERIES_CHANNEL,
  type AttemptOutcome,
  createAddonSender,
  deliverAddonEvents,
  type DeliveryPolicy,
} from "./addons/deliver-addon-events.ts";
export type { TargetPolicy } from "./addons/addon-target.ts";
