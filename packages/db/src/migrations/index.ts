import type { Migration } from "kysely";
import * as foundation from "./2026-11-22T10-00-foundation.ts";
import * as identity from "./2026-11-22T11-00-identity.ts";
import * as banners from "./2026-11-22T12-00-banners.ts";
import * as features from "./2026-11-22T13-00-features.ts";
import * as changeRequests from "./2026-11-22T14-00-change-requests.ts";
import * as authChangeNotifications from "./2026-11-22T15-00-auth-change-notifications.ts";
import * as flagModel from "./2026-11-23T10-00-flag-model.ts";
import * as scheduleRetries from "./2026-11-23T20-00-schedule-retries.ts";
import * as flagLifecycle from "./2026-11-24T10-00-flag-lifecycle.ts";
import * as tagTypeColors from "./2026-11-24T12-00-tag-type-colors.ts";
import * as featureTypesAsUnleash from "./2026-11-24T12-00-feature-types-as-unleash.ts";
import * as lifecycleStages from "./2026-11-24T13-00-lifecycle-stages.ts";
import * as contextFields from "./2026-11-24T20-00-context-fields.ts";
import * as featureSearch from "./2026-11-24T12-00-feature-search.ts";
import * as webhooks from "./2026-11-24T14-00-webhooks.ts";
import * as clientMetricsDaily from "./2026-11-24T20-00-client-metrics-daily.ts";
import * as changeRequestInbox from "./2026-11-25T09-00-change-request-inbox.ts";
import * as oidc from "./2026-11-25T09-00-oidc.ts";
import * as scim from "./2026-11-25T09-00-scim.ts";
import * as unknownFlags from "./2026-11-25T12-00-unknown-flags.ts";
import * as consoleEvents from "./2026-11-26T09-00-console-events.ts";
import * as projectRoles from "./2026-11-26T09-00-project-roles.ts";
import * as changeRequestChangesStatistics from "./2026-11-26T10-00-change-request-changes-statistics.ts";
import * as featureTagKeys from "./2026-11-28T20-00-feature-tag-keys.ts";
import * as searchWithoutCaches from "./2026-12-01T12-00-search-without-caches.ts";
import * as identityHardening from "./2026-12-01T13-00-identity-hardening.ts";

// Superseded by 2026-12-01T12-00-search-without-caches, kept so that databases that ran them still migrate.
const superseded: Migration = { up: async () => {} };

/**
 * Every migration, by sortable name. A static list rather than a folder scan, so that the
 * server runs the same set whether it is started from source, bundled or installed.
 */
export const migrations: Record<string, Migration> = {
  "2026-11-22T10-00-foundation": foundation,
  "2026-11-22T11-00-identity": identity,
  "2026-11-22T12-00-banners": banners,
  "2026-11-22T13-00-features": features,
  "2026-11-22T14-00-change-requests": changeRequests,
  "2026-11-22T15-00-auth-change-notifications": authChangeNotifications,
  "2026-11-23T10-00-flag-model": flagModel,
  "2026-11-23T20-00-schedule-retries": scheduleRetries,
  "2026-11-24T10-00-flag-lifecycle": flagLifecycle,
  "2026-11-24T12-00-feature-search": featureSearch,
  "2026-11-24T12-00-feature-types-as-unleash": featureTypesAsUnleash,
  "2026-11-24T12-00-tag-type-colors": tagTypeColors,
  "2026-11-24T13-00-lifecycle-stages": lifecycleStages,
  "2026-11-24T14-00-webhooks": webhooks,
  "2026-11-24T20-00-client-metrics-daily": clientMetricsDaily,
  "2026-11-24T20-00-context-fields": contextFields,
  "2026-11-25T09-00-change-request-inbox": changeRequestInbox,
  "2026-11-25T09-00-oidc": oidc,
  "2026-11-25T09-00-scim": scim,
  "2026-11-25T12-00-unknown-flags": unknownFlags,
  "2026-11-26T09-00-console-events": consoleEvents,
  "2026-11-26T09-00-project-roles": projectRoles,
  "2026-11-26T10-00-change-request-changes-statistics": changeRequestChangesStatistics,
  "2026-11-28T12-00-feature-search-stamps": superseded,
  "2026-11-28T20-00-feature-tag-keys": featureTagKeys,
  "2026-11-29T04-00-feature-search-terms-generation": superseded,
  "2026-11-29T18-00-feature-search-answers-generation": superseded,
  "2026-12-01T12-00-search-without-caches": searchWithoutCaches,
  "2026-12-01T13-00-identity-hardening": identityHardening,
};
