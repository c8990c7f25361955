import { bannersRouter } from "./router/banners.ts";
import { apiTokensRouter } from "./router/api-tokens.ts";
import { authRouter } from "./router/auth.ts";
import { changeRequestsRouter } from "./router/change-requests.ts";
import { environmentsRouter } from "./router/environments.ts";
import { eventsRouter } from "./router/events.ts";
import { featuresRouter } from "./router/features.ts";
import { projectsRouter } from "./router/projects.ts";
import { usersRouter } from "./router/users.ts";
import { clientFeaturesRouter } from "./router/client-features.ts";
import { clientMetricsRouter } from "./router/client-metrics.ts";
import { dependenciesRouter } from "./router/dependencies.ts";
import { featureEnvironmentsRouter } from "./router/feature-environments.ts";
import { featureStrategiesRouter } from "./router/feature-strategies.ts";
import { frontendRouter } from "./router/frontend.ts";
import { ofrepRouter } from "./router/ofrep.ts";
import { segmentsRouter } from "./router/segments.ts";
import { strategyTypesRouter } from "./router/strategy-types.ts";
import { featureArchiveRouter } from "./router/feature-archive.ts";
import { featureTagsRouter } from "./router/feature-tags.ts";
import { tagTypesRouter } from "./router/tag-types.ts";
import { contextFieldsRouter } from "./router/context-fields.ts";
import { tagsRouter } from "./router/tags.ts";
import { featureStalenessRouter } from "./router/feature-staleness.ts";
import { featureTypesRouter } from "./router/feature-types.ts";
import { projectHealthRouter } from "./router/project-health.ts";
import { featureLifecycleRouter } from "./router/feature-lifecycle.ts";
import { featureBulkToggleRouter } from "./router/feature-bulk-toggle.ts";
import { featureCloneRouter } from "./router/feature-clone.ts";
import { featureNamesRouter } from "./router/feature-names.ts";
import { featureSearchRouter } from "./router/feature-search.ts";
import { featuresBatchRouter } from "./router/features-batch.ts";
import { addonsRouter } from "./router/addons.ts";
import { oidcRouter } from "./router/oidc.ts";
import { changeRequestInboxRouter } from "./router/change-request-inbox.ts";
import { playgroundRouter } from "./router/playground.ts";
import { groupsRouter } from "./router/groups.ts";
import { scimRouter } from "./router/scim.ts";
import { usageRouter } from "./router/usage.ts";
import { projectAccessRouter } from "./router/project-access.ts";
import { consoleEventsRouter } from "./router/console-events.ts";
import { router } from "./trpc.ts";

export const appRouter = router({
  environments: environmentsRouter,
  projects: projectsRouter,
  features: featuresRouter,
  auth: authRouter,
  users: usersRouter,
  apiTokens: apiTokensRouter,
  changeRequests: changeRequestsRouter,
  banners: bannersRouter,
  events: eventsRouter,
  featureEnvironments: featureEnvironmentsRouter,
  featureStrategies: featureStrategiesRouter,
  strategyTypes: strategyTypesRouter,
  segments: segmentsRouter,
  dependencies: dependenciesRouter,
  clientFeatures: clientFeaturesRouter,
  clientMetrics: clientMetricsRouter,
  frontend: frontendRouter,
  featureArchive: featureArchiveRouter,
  tagTypes: tagTypesRouter,
  contextFields: contextFieldsRouter,
  tags: tagsRouter,
  featureTags: featureTagsRouter,
  featureStaleness: featureStalenessRouter,
  featureTypes: featureTypesRouter,
  projectHealth: projectHealthRouter,
  featureLifecycle: featureLifecycleRouter,
  featureClone: featureCloneRouter,
  featureBulkToggle: featureBulkToggleRouter,
  featureNames: featureNamesRouter,
  ofrep: ofrepRouter,
  featureSearch: featureSearchRouter,
  featuresBatch: featuresBatchRouter,
  addons: addonsRouter,
  oidc: oidcRouter,
  playground: playgroundRouter,
  changeRequestInbox: changeRequestInboxRouter,
  groups: groupsRouter,
  scim: scimRouter,
  usage: usageRouter,
  projectAccess: projectAccessRouter,
  consoleEvents: consoleEventsRouter,
});

export type AppRouter = typeof appRouter;
