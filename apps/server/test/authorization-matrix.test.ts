import { appRouter, restRoutes } from "@vexil/api";
import {
  addChange,
  addFeatureDependency,
  addFeatureStrategy,
  archiveFeature,
  createAddon,
  createApiToken,
  createBanner,
  createContextField,
  createEnvironment,
  createFeature,
  createPersonalToken,
  createScimGroup,
  createScimUser,
  createSegment,
  createTag,
  createTagType,
  createUser,
  moveChangeRequest,
  RootRole,
  registerClient,
} from "@vexil/services";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { type Caller, newCaller, PRINCIPAL_KINDS, type PrincipalKind } from "./support/principal-kinds.ts";
import { frontendToken, TEST_PASSWORD, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

const srv = await startTestServer({ SCHEDULER_INTERVAL_MS: "0" });
const db = srv.db.kysely;
const hasher = srv.app.deps.hasher;
let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}`;

// Fixtures every row may read: a feature, production gated by change requests (1 approval),
// a change request to read, and a user to log in as.
const setup = await userWithRole(srv, "admin");
const FEATURE = "matrix-feature";
const DEV = { projectId: "default", featureName: FEATURE, environment: "development" };
await srv.call("POST", "/api/admin/projects/default/features", { body: { name: FEATURE }, headers: setup.headers });
await srv.call("PUT", "/api/admin/projects/default/environments/production/change-requests/config", {
  body: { changeRequestsEnabled: true, requiredApprovals: 1 },
  headers: setup.headers,
});
const setupAdmin = { kind: "user", userId: setup.id, username: setup.username, rootRole: RootRole.Admin, via: "session" } as const;
const readableCr = await changeRequestInReview();
const loginUser = await userWithRole(srv, "viewer");
// OFREP's event stream opens by the ticket in its path, which a bulk evaluation's eventStreams names.
const ofrepTicket = await (async () => {
  const bulk = await srv.call("POST", "/ofrep/v1/evaluate/flags", { headers: await frontendToken(srv), body: {} });
  const url = bulk.json.eventStreams[0].url as string;
  return url.slice(url.lastIndexOf("/") + 1);
})();

/** An import of one new flag into development, which change requests do not gate. */
function batchImport(featureName: string) {
  const data = { features: [{ name: featureName }], featureStrategies: [{ name: "default", featureName }], tagTypes: [] };
  return { project: "default", environment: "development", data };
}

/** A change request in review, by an author of its own, so each cell acts on a fresh one. */
async function changeRequestInReview(): Promise<number> {
  const author = await createUser(db, hasher, null, { username: unique("cr-author"), rootRole: RootRole.Editor });
  const by = { kind: "user", userId: author.id, username: author.username as string, rootRole: RootRole.Editor, via: "session" } as const;
  return db.transaction().execute(async (trx) => {
    const { id } = await addChange(trx, by, {
      projectId: "default",
      environment: "production",
      feature: FEATURE,
      action: "updateEnabled",
      payload: { enabled: true },
    });
    await moveChangeRequest(trx, by, "default", id, { state: "In review" });
    return id;
  });
}

interface Request {
  params?: Record<string, string | number>;
  body?: unknown;
}

interface Row {
  /** Expected status per principal, in PRINCIPAL_KINDS order. */
  expect: string;
  request?: (caller: Caller) => Promise<Request> | Request;
  /** The call ends or changes the caller's own credentials: every cell gets a new caller. */
  fresh?: boolean;
}

//                                         nobody tampered revoked viewer editor admin adminToken clientToken personalToken(Editor) frontendToken scimToken
//                                         projectViewer(Editor, Viewer of default) projectMember(Viewer, Member of default) projectOwner(Viewer, Owner of default)
const READ = "401 401 401 200 200 200 200 403 200 403 403 200 200 200";
const ADMIN_ONLY = "401 401 401 403 403 200 200 403 403 403 403 403 403 403";
const ADMIN_CREATES = "401 401 401 403 403 201 201 403 403 403 403 403 403 403";
// Writes in a project ("default"): its project Viewer (a root Editor) is refused, its Members and Owners write (docs/project-roles.md#the-rule).
const PROJECT_WRITES = "401 401 401 403 200 200 200 403 200 403 403 403 200 200";
const EDITOR_WRITES = "401 401 401 403 200 200 200 403 200 403 403 200 403 403";
const PUBLIC = "200 200 200 200 200 200 200 200 200 200 200 200 200 200";
const NOT_SET_UP = "404 404 404 404 404 404 404 404 404 404 404 404 404 404";
const SDK = "401 401 401 403 403 403 200 200 403 403 403 403 403 403";
const SKIPPERS = "401 401 401 403 403 200 200 403 403 403 403 403 403 403";
// The frontend API takes frontend tokens (and admin tokens, as in Unleash); nothing else.
const FRONTEND = "401 401 401 403 403 403 200 403 403 200 403 403 403 403";
const SDK_ACCEPTS = "401 401 401 403 403 403 202 202 403 403 403 403 403 403";
// OFREP takes either SDK token (a server provider's client token, a browser's frontend token) and an admin token.
const OFREP = "401 401 401 403 403 403 200 200 403 200 403 403 403 403";
// SCIM takes a SCIM token and nothing else; a SCIM token is refused everywhere else (docs/scim.md#the-scim-token).
const SCIM = "401 401 401 403 403 403 403 403 403 403 200 403 403 403";
const SCIM_CREATES = "401 401 401 403 403 403 403 403 403 403 201 403 403 403";
const SCIM_DELETES = "401 401 401 403 403 403 403 403 403 403 204 403 403 403";
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
// A project's access is changed by Admins and the project's Owners only (docs/project-roles.md#project-access).
const PROJECT_ACCESS = "401 401 401 403 403 200 200 403 403 403 403 403 403 200";

/** The one table: every route the server serves, and who gets which status. */
const MATRIX: Record<string, Row> = {
  "GET /health": { expect: PUBLIC },
  "GET /ready": { expect: PUBLIC },
  "GET /docs/openapi.json": { expect: PUBLIC },
  // Open without PROMETHEUS_TOKEN, as Unleash's; prometheus.test.ts covers the token.
  "GET /internal-backstage/prometheus": { expect: PUBLIC },

  "POST /auth/simple/login": { expect: PUBLIC, request: () => ({ body: { username: loginUser.username, password: TEST_PASSWORD } }) },
  "POST /logout": { expect: PUBLIC, fresh: true, request: () => ({ body: {} }) },
  "GET /auth/login-options": { expect: PUBLIC },
  // Single sign-on is not set up here: its steps are a 404 for everyone, over both transports (oidc.test.ts runs them against a provider).
  "GET /auth/oidc/login": { expect: NOT_SET_UP },
  "GET /auth/oidc/callback": { expect: NOT_SET_UP },
  // A person's own account: an API token is no user.
  "GET /api/admin/user": { expect: "401 401 401 200 200 200 403 403 200 403 403 200 200 200" },

  "GET /api/admin/environments": { expect: READ },
  "POST /api/admin/environments": { expect: ADMIN_CREATES, request: () => ({ body: { name: unique("env"), type: "development" } }) },
  "GET /api/admin/projects": { expect: READ },
  "POST /api/admin/projects": { expect: ADMIN_CREATES, request: () => ({ body: { id: unique("project"), name: "Matrix" } }) },
  // A project's settings are its Owners' as in Unleash (docs/project-roles.md#what-an-owner-manages).
  "POST /api/admin/projects/{projectId}/environments": {
    expect: PROJECT_ACCESS,
    request: async () => {
      const name = unique("env");
      await createEnvironment(db, null, { name, type: "development" });
      return { params: { projectId: "default" }, body: { environment: name } };
    },
  },

  "GET /api/admin/projects/{projectId}/features": { expect: READ, request: () => ({ params: { projectId: "default" } }) },
  "POST /api/admin/projects/{projectId}/features": {
    expect: "401 401 401 403 201 201 201 403 201 403 403 403 201 201",
    request: () => ({ params: { projectId: "default" }, body: { name: unique("feature") } }),
  },
  "GET /api/admin/projects/{projectId}/features/{featureName}": {
    expect: READ,
    request: () => ({ params: { projectId: "default", featureName: FEATURE } }),
  },
  "GET /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants": {
    expect: READ,
    request: () => ({ params: { projectId: "default", featureName: FEATURE, environment: "development" } }),
  },
  "PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants": {
    expect: PROJECT_WRITES,
    request: () => ({
      params: { projectId: "default", featureName: FEATURE, environment: "development" },
      body: [{ name: "blue", weight: 1000, weightType: "variable", stickiness: "default" }],
    }),
  },
  "PATCH /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants": {
    expect: PROJECT_WRITES,
    request: () => ({
      params: { projectId: "default", featureName: FEATURE, environment: "development" },
      body: [{ op: "add", path: "/-", value: { name: unique("v"), weightType: "variable", stickiness: "default" } }],
    }),
  },

  "PUT /api/admin/projects/{projectId}/features/{featureName}": {
    expect: PROJECT_WRITES,
    request: () => ({ params: { projectId: "default", featureName: FEATURE }, body: { impressionData: true } }),
  },
  "POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on": {
    expect: PROJECT_WRITES,
    request: () => ({ params: DEV }),
  },
  "POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off": {
    expect: PROJECT_WRITES,
    request: () => ({ params: DEV }),
  },
  "GET /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies": {
    expect: READ,
    request: () => ({ params: DEV }),
  },
  "POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies": {
    expect: PROJECT_WRITES,
    request: () => ({ params: DEV, body: { name: "default" } }),
  },
  "GET /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}": {
    expect: READ,
    request: async () => ({ params: { ...DEV, strategyId: await newStrategy() } }),
  },
  "PUT /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}": {
    expect: PROJECT_WRITES,
    request: async () => ({
      params: { ...DEV, strategyId: await newStrategy() },
      body: { name: "userWithId", parameters: { userIds: "1" } },
    }),
  },
  "DELETE /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}": {
    expect: PROJECT_WRITES,
    request: async () => ({ params: { ...DEV, strategyId: await newStrategy() } }),
  },
  "GET /api/admin/strategies": { expect: READ },
  "POST /api/admin/strategies": { expect: ADMIN_CREATES, request: () => ({ body: { name: unique("strategy"), parameters: [] } }) },
  "GET /api/admin/segments": { expect: READ },
  "POST /api/admin/segments": {
    expect: "401 401 401 403 201 201 201 403 201 403 403 201 403 403",
    request: () => ({ body: { name: unique("segment") } }),
  },
  "GET /api/admin/segments/{id}": { expect: READ, request: async () => ({ params: { id: await newSegment() } }) },
  "GET /api/admin/segments/{id}/strategies": { expect: READ, request: async () => ({ params: { id: await newSegment() } }) },
  "PUT /api/admin/segments/{id}": {
    expect: EDITOR_WRITES,
    request: async () => ({ params: { id: await newSegment() }, body: { name: unique("segment") } }),
  },
  "DELETE /api/admin/segments/{id}": { expect: EDITOR_WRITES, request: async () => ({ params: { id: await newSegment() } }) },
  // Change requests are on in production of "default": only those who may skip them write dependencies directly.
  "POST /api/admin/projects/{projectId}/features/{featureName}/dependencies": {
    expect: SKIPPERS,
    request: async () => ({ params: { projectId: "default", featureName: await newFeature() }, body: { feature: FEATURE } }),
  },
  "DELETE /api/admin/projects/{projectId}/features/{featureName}/dependencies/{parent}": {
    expect: SKIPPERS,
    request: async () => {
      const child = await newFeature();
      // Made by the admin: the project has a gated environment, so only a holder of SKIP_CHANGE_REQUEST writes dependencies directly.
      await addFeatureDependency(db, setupAdmin, { projectId: "default", featureName: child }, { feature: FEATURE });
      return { params: { projectId: "default", featureName: child, parent: FEATURE } };
    },
  },

  // The client API takes client tokens (and admin tokens); users and their personal tokens are refused.
  "GET /api/client/features": { expect: SDK },
  "GET /api/client/features/{featureName}": { expect: SDK, request: () => ({ params: { featureName: FEATURE } }) },
  "GET /api/client/delta": { expect: SDK },
  // Over REST a stream of server-sent events, read up to its first event.
  "GET /api/client/streaming": { expect: SDK },
  "POST /api/client/register": {
    expect: SDK_ACCEPTS,
    request: () => ({
      body: {
        appName: "matrix",
        instanceId: unique("instance"),
        strategies: ["default"],
        started: new Date().toISOString(),
        interval: 10_000,
      },
    }),
  },
  "POST /api/client/metrics": {
    expect: SDK_ACCEPTS,
    request: () => ({
      body: {
        appName: "matrix",
        instanceId: "i",
        bucket: { start: new Date().toISOString(), stop: new Date().toISOString(), toggles: { [FEATURE]: { yes: 1, no: 0 } } },
      },
    }),
  },
  "GET /api/frontend": { expect: FRONTEND },
  "POST /api/frontend": { expect: FRONTEND, request: () => ({ body: { context: { userId: "matrix" } } }) },
  "POST /api/frontend/client/metrics": {
    expect: FRONTEND,
    request: () => ({
      body: {
        appName: "matrix-web",
        instanceId: "browser",
        bucket: {
          start: new Date().toISOString(),
          stop: new Date().toISOString(),
          toggles: { [FEATURE]: { yes: 1, no: 0, variants: {} } },
        },
      },
    }),
  },
  "GET /api/admin/metrics/applications": { expect: READ },
  "GET /api/admin/client-metrics/features/{featureName}/raw": { expect: READ, request: () => ({ params: { featureName: FEATURE } }) },
  "GET /api/admin/client-metrics/features/{featureName}": { expect: READ, request: () => ({ params: { featureName: FEATURE } }) },
  "GET /api/admin/metrics/applications/{appName}": {
    expect: READ,
    request: async () => {
      const registration = {
        appName: "matrix-app",
        instanceId: "i",
        strategies: ["default"],
        started: new Date().toISOString(),
        interval: 1,
      };
      await registerClient(db, "development", registration);
      return { params: { appName: "matrix-app" } };
    },
  },
  "GET /api/admin/metrics/unknown-flags": { expect: READ },

  "GET /api/admin/banners": { expect: READ },
  "POST /api/admin/banners": { expect: ADMIN_CREATES, request: () => ({ body: { message: "matrix" } }) },
  "PUT /api/admin/banners/{id}": {
    expect: ADMIN_ONLY,
    request: async () => ({ params: { id: await newBanner() }, body: { message: "changed" } }),
  },
  "DELETE /api/admin/banners/{id}": { expect: ADMIN_ONLY, request: async () => ({ params: { id: await newBanner() } }) },
  "POST /api/admin/banners/{id}/on": { expect: ADMIN_ONLY, request: async () => ({ params: { id: await newBanner() } }) },
  "POST /api/admin/banners/{id}/off": { expect: ADMIN_ONLY, request: async () => ({ params: { id: await newBanner() } }) },

  "GET /api/admin/events": { expect: ADMIN_ONLY },

  // Integrations say where every change goes: the admins' alone (docs/webhooks.md#the-api).
  "GET /api/admin/addons": { expect: ADMIN_ONLY },
  "POST /api/admin/addons": { expect: ADMIN_CREATES, request: () => ({ body: ADDON }) },
  "GET /api/admin/addons/{id}": { expect: ADMIN_ONLY, request: async () => ({ params: { id: await newAddon() } }) },
  "PUT /api/admin/addons/{id}": {
    expect: ADMIN_ONLY,
    request: async () => ({ params: { id: await newAddon() }, body: { enabled: false } }),
  },
  "DELETE /api/admin/addons/{id}": { expect: ADMIN_ONLY, request: async () => ({ params: { id: await newAddon() } }) },
  "GET /api/admin/addons/{id}/events": { expect: ADMIN_ONLY, request: async () => ({ params: { id: await newAddon() } }) },
  "GET /api/admin/user-admin": { expect: ADMIN_ONLY },
  "POST /api/admin/user-admin": { expect: ADMIN_CREATES, request: () => ({ body: { username: unique("user"), rootRole: 3 } }) },
  "DELETE /api/admin/user-admin/{id}": { expect: ADMIN_ONLY, request: async () => ({ params: { id: await newUser() } }) },
  "POST /api/admin/user-admin/{id}/change-password": {
    expect: ADMIN_ONLY,
    request: async () => ({ params: { id: await newUser() }, body: { password: "another long password" } }),
  },
  // A token is not a user and has no password of its own; a personal token may not change its user's.
  "POST /api/admin/user/change-password": {
    expect: "401 401 401 200 200 200 403 403 403 403 403 200 200 200",
    fresh: true,
    request: () => ({ body: { password: "my new long password", oldPassword: TEST_PASSWORD } }),
  },

  "GET /api/admin/api-tokens": { expect: ADMIN_ONLY },
  "POST /api/admin/api-tokens": { expect: ADMIN_CREATES, request: () => ({ body: { tokenName: unique("token"), type: "client" } }) },
  "DELETE /api/admin/api-tokens/{id}": {
    expect: ADMIN_ONLY,
    request: async () => {
      const token = await createApiToken(db, null, { tokenName: unique("token"), type: "client" });
      return { params: { id: token.id } };
    },
  },
  // Personal tokens belong to users: an admin token has none.
  "GET /api/admin/user/tokens": { expect: "401 401 401 200 200 200 403 403 200 403 403 200 200 200" },
  // Minted from a session only: a personal token cannot make the next one.
  "POST /api/admin/user/tokens": {
    expect: "401 401 401 201 201 201 403 403 403 403 403 201 201 201",
    request: () => ({ body: { description: "mine", expiresAt: "2099-01-01T00:00:00.000Z" } }),
  },
  "DELETE /api/admin/user/tokens/{id}": {
    expect: "401 401 401 200 200 200 403 403 200 403 403 200 200 200",
    request: async (caller) => {
      // The caller's own token where it is a user, else someone else's (refused before it is looked up).
      const ownerId = caller.userId ?? setup.id;
      const by = { kind: "user", userId: ownerId, username: "owner", rootRole: RootRole.Viewer, via: "session" } as const;
      const token = await createPersonalToken(db, by, { description: unique("pat"), expiresAt: new Date("2099-01-01T00:00:00Z") });
      return { params: { id: token.id } };
    },
  },

  "GET /api/admin/projects/{projectId}/change-requests/config": { expect: READ, request: () => ({ params: { projectId: "default" } }) },
  "PUT /api/admin/projects/{projectId}/environments/{environment}/change-requests/config": {
    expect: PROJECT_ACCESS,
    request: () => ({
      params: { projectId: "default", environment: "production" },
      body: { changeRequestsEnabled: true, requiredApprovals: 1 },
    }),
  },
  // Change requests are proposed and approved by users; an admin token is refused.
  "POST /api/admin/projects/{projectId}/environments/{environment}/change-requests": {
    expect: "401 401 401 403 200 200 403 403 200 403 403 403 200 200",
    request: () => ({
      params: { projectId: "default", environment: "production" },
      body: { feature: FEATURE, action: "updateEnabled", payload: { enabled: false } },
    }),
  },
  "GET /api/admin/projects/{projectId}/change-requests/pending": { expect: READ, request: () => ({ params: { projectId: "default" } }) },
  "GET /api/admin/projects/{projectId}/change-requests/{id}": {
    expect: READ,
    request: () => ({ params: { projectId: "default", id: readableCr } }),
  },
  "PUT /api/admin/projects/{projectId}/change-requests/{id}/state": {
    expect: "401 401 401 403 200 200 403 403 200 403 403 403 200 200",
    request: async () => ({ params: { projectId: "default", id: await changeRequestInReview() }, body: { state: "Approved" } }),
  },

  // Archive, revive, delete (docs/flag-lifecycle.md#archive-revive-delete). Production of "default" is gated: archiving is a
  // direct write there, so only those who may skip change requests archive; reviving and deleting an archived flag are not gated.
  "DELETE /api/admin/projects/{projectId}/features/{featureName}": {
    expect: "401 401 401 403 403 202 202 403 403 403 403 403 403 403",
    request: async () => ({ params: { projectId: "default", featureName: await newFeature() } }),
  },
  "POST /api/admin/projects/{projectId}/archive": {
    expect: "401 401 401 403 403 202 202 403 403 403 403 403 403 403",
    request: async () => ({ params: { projectId: "default" }, body: { features: [await newFeature()] } }),
  },
  "POST /api/admin/projects/{projectId}/archive/validate": {
    expect: PROJECT_WRITES,
    request: async () => ({ params: { projectId: "default" }, body: { features: [await newFeature()] } }),
  },
  "POST /api/admin/projects/{projectId}/revive": {
    expect: PROJECT_WRITES,
    request: async () => ({ params: { projectId: "default" }, body: { features: [await archivedFeature()] } }),
  },
  "POST /api/admin/archive/revive/{featureName}": {
    expect: PROJECT_WRITES,
    request: async () => ({ params: { featureName: await archivedFeature() } }),
  },
  "POST /api/admin/projects/{projectId}/delete": {
    expect: PROJECT_WRITES,
    request: async () => ({ params: { projectId: "default" }, body: { features: [await archivedFeature()] } }),
  },
  "DELETE /api/admin/archive/{featureName}": {
    expect: PROJECT_WRITES,
    request: async () => ({ params: { featureName: await archivedFeature() } }),
  },
  // Tags: tag types are Editors' (CREATE/UPDATE/DELETE_TAG_TYPE, as in Unleash); a flag's tags need UPDATE_FEATURE;
  // creating a tag needs only to be authenticated, as in Unleash.
  "GET /api/admin/tag-types": { expect: READ },
  "POST /api/admin/tag-types": {
    expect: "401 401 401 403 201 201 201 403 201 403 403 201 403 403",
    request: () => ({ body: { name: unique("tag-type") } }),
  },
  "POST /api/admin/tag-types/validate": { expect: READ, request: () => ({ body: { name: unique("tag-type") } }) },
  "GET /api/admin/tag-types/{name}": { expect: READ, request: () => ({ params: { name: "simple" } }) },
  "PUT /api/admin/tag-types/{name}": {
    expect: EDITOR_WRITES,
    request: async () => ({ params: { name: await newTagType() }, body: { description: "changed" } }),
  },
  "DELETE /api/admin/tag-types/{name}": { expect: EDITOR_WRITES, request: async () => ({ params: { name: await newTagType() } }) },
  // Context fields: reading for anyone signed in; writes are Editors' (CREATE/UPDATE/DELETE_CONTEXT_FIELD, as in Unleash).
  "GET /api/admin/context": { expect: READ },
  "POST /api/admin/context": {
    expect: "401 401 401 403 201 201 201 403 201 403 403 201 403 403",
    request: () => ({ body: { name: unique("ctx") } }),
  },
  "POST /api/admin/context/validate": { expect: EDITOR_WRITES, request: () => ({ body: { name: unique("ctx") } }) },
  "GET /api/admin/context/{contextField}": { expect: READ, request: () => ({ params: { contextField: "userId" } }) },
  "GET /api/admin/context/{contextField}/strategies": { expect: READ, request: () => ({ params: { contextField: "userId" } }) },
  "PUT /api/admin/context/{contextField}": {
    expect: EDITOR_WRITES,
    request: async () => ({ params: { contextField: await newContextField() }, body: { description: "changed" } }),
  },
  "POST /api/admin/context/{contextField}/legal-values": {
    expect: EDITOR_WRITES,
    request: async () => ({ params: { contextField: await newContextField() }, body: { value: "v" } }),
  },
  "DELETE /api/admin/context/{contextField}/legal-values/{legalValue}": {
    expect: EDITOR_WRITES,
    request: async () => ({ params: { contextField: await newContextField(), legalValue: "v" } }),
  },
  "DELETE /api/admin/context/{contextField}": {
    expect: EDITOR_WRITES,
    request: async () => ({ params: { contextField: await newContextField() } }),
  },
  "GET /api/admin/tags": { expect: READ },
  "POST /api/admin/tags": {
    expect: "401 401 401 201 201 201 201 403 201 403 403 201 201 201",
    request: () => ({ body: { type: "simple", value: unique("tag") } }),
  },
  "GET /api/admin/tags/{type}": { expect: READ, request: () => ({ params: { type: "simple" } }) },
  "GET /api/admin/tags/{type}/{value}": { expect: READ, request: async () => ({ params: await newTag() }) },
  "DELETE /api/admin/tags/{type}/{value}": { expect: EDITOR_WRITES, request: async () => ({ params: await newTag() }) },
  "GET /api/admin/features/{featureName}/tags": { expect: READ, request: () => ({ params: { featureName: FEATURE } }) },
  "POST /api/admin/features/{featureName}/tags": {
    expect: "401 401 401 403 201 201 201 403 201 403 403 403 201 201",
    request: () => ({ params: { featureName: FEATURE }, body: { type: "simple", value: unique("tag") } }),
  },
  "PUT /api/admin/features/{featureName}/tags": {
    expect: PROJECT_WRITES,
    request: () => ({ params: { featureName: FEATURE }, body: { addedTags: [{ type: "simple", value: unique("tag") }], removedTags: [] } }),
  },
  "DELETE /api/admin/features/{featureName}/tags/{type}/{value}": {
    expect: PROJECT_WRITES,
    request: async () => ({ params: { featureName: FEATURE, ...(await newTag()) } }),
  },
  "PUT /api/admin/projects/{projectId}/tags": {
    expect: PROJECT_WRITES,
    request: () => ({
      params: { projectId: "default" },
      body: { features: [FEATURE], tags: { addedTags: [{ type: "simple", value: unique("tag") }], removedTags: [] } },
    }),
  },
  // Flag lifecycle: stale flags, feature types, project health.
  "PATCH /api/admin/projects/{projectId}/features/{featureName}": {
    expect: PROJECT_WRITES,
    request: () => ({
      params: { projectId: "default", featureName: FEATURE },
      body: [{ op: "replace", path: "/description", value: unique("d") }],
    }),
  },
  "POST /api/admin/projects/{projectId}/stale": {
    expect: "401 401 401 403 202 202 202 403 202 403 403 403 202 202",
    request: () => ({ params: { projectId: "default" }, body: { features: [FEATURE], stale: seq++ % 2 === 0 } }),
  },
  "GET /api/admin/feature-types": { expect: READ },
  "PUT /api/admin/feature-types/{id}/lifetime": {
    expect: ADMIN_ONLY,
    request: () => ({ params: { id: "release" }, body: { lifetimeDays: 40 } }),
  },
  "GET /api/admin/projects/{projectId}/health-report": { expect: READ, request: () => ({ params: { projectId: "default" } }) },
  "GET /api/admin/projects/{projectId}/features/{featureName}/lifecycle": {
    expect: READ,
    request: () => ({ params: { projectId: "default", featureName: FEATURE } }),
  },
  "POST /api/admin/projects/{projectId}/features/{featureName}/lifecycle/complete": {
    expect: PROJECT_WRITES,
    request: () => ({ params: { projectId: "default", featureName: FEATURE }, body: { status: "kept" } }),
  },
  "POST /api/admin/projects/{projectId}/features/{featureName}/lifecycle/uncomplete": {
    expect: PROJECT_WRITES,
    request: () => ({ params: { projectId: "default", featureName: FEATURE } }),
  },
  "GET /api/admin/lifecycle/count": { expect: READ },
  // Daily edits (docs/flag-model.md#daily-edits).
  "GET /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}": {
    expect: READ,
    request: () => ({ params: DEV }),
  },
  // A clone writes strategies into every environment: production is gated, so only those who may skip change requests clone.
  "POST /api/admin/projects/{projectId}/features/{featureName}/clone": {
    expect: "401 401 401 403 403 201 201 403 403 403 403 403 403 403",
    request: () => ({ params: { projectId: "default", featureName: FEATURE }, body: { name: unique("clone") } }),
  },
  "POST /api/admin/projects/{projectId}/bulk_features/environments/{environment}/on": {
    expect: PROJECT_WRITES,
    request: () => ({ params: { projectId: "default", environment: "development" }, body: { features: [FEATURE] } }),
  },
  "POST /api/admin/projects/{projectId}/bulk_features/environments/{environment}/off": {
    expect: PROJECT_WRITES,
    request: () => ({ params: { projectId: "default", environment: "development" }, body: { features: [FEATURE] } }),
  },
  "PATCH /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}": {
    expect: PROJECT_WRITES,
    request: async () => ({
      params: { ...DEV, strategyId: await newStrategy() },
      body: [{ op: "replace", path: "/title", value: "patched" }],
    }),
  },
  "POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/set-sort-order": {
    expect: PROJECT_WRITES,
    request: async () => ({ params: DEV, body: [{ id: await newStrategy(), sortOrder: 0 }] }),
  },
  "POST /api/admin/features/validate": { expect: READ, request: () => ({ body: { name: unique("free") } }) },
  // Unleash's features-batch routes (docs/migrate-from-unleash.md): reading is anyone's; an import is refused to an admin token, as in Unleash.
  "POST /api/admin/features-batch/export": { expect: READ, request: () => ({ body: { environment: "development", features: [FEATURE] } }) },
  "POST /api/admin/features-batch/validate": { expect: READ, request: () => ({ body: batchImport(unique("batch")) }) },
  // Checked in the project the body names (docs/project-roles.md#which-routes): its Members and Owners import there.
  "POST /api/admin/features-batch/import": {
    expect: "401 401 401 403 200 200 400 403 200 403 403 403 200 200",
    request: () => ({ body: batchImport(unique("batch")) }),
  },
  "POST /ofrep/v1/evaluate/flags/{key}": {
    expect: OFREP,
    request: () => ({ params: { key: FEATURE }, body: { context: { targetingKey: "matrix" } } }),
  },
  "POST /ofrep/v1/evaluate/flags": { expect: OFREP, request: () => ({ body: { context: { targetingKey: "matrix" } } }) },
  // The ticket is the credential, whoever holds it (a browser's EventSource sends no header).
  "GET /ofrep/v1/event-stream/{ticket}": { expect: PUBLIC, request: () => ({ params: { ticket: ofrepTicket } }) },
  // Search reads every project's flags, as Unleash lets any user; SDK tokens are refused as on the rest of the admin API.
  "GET /api/admin/search/features": { expect: READ },
  // The playground evaluates for anyone signed in, as Unleash's (permission NONE); it stores nothing (docs/playground.md).
  "POST /api/admin/playground": {
    expect: READ,
    request: () => ({ body: { environment: "development", context: { appName: "matrix", userId: "matrix" } } }),
  },
  "POST /api/admin/playground/advanced": {
    expect: READ,
    request: () => ({ body: { environments: ["development", "production"], context: { appName: "matrix", userId: "a,b" } } }),
  },
  // The inbox lists what the caller can act on; a viewer's is empty, an SDK token is refused as on the rest of the admin API.
  "GET /api/admin/change-requests/inbox": { expect: READ },
  // An open console's stream of what changed (docs/console-live.md): anyone signed in; SDK tokens are refused as on the rest of the admin API.
  "GET /api/admin/console-events": { expect: READ },

  "GET /scim/v2/ServiceProviderConfig": { expect: SCIM },
  "GET /scim/v2/ResourceTypes": { expect: SCIM },
  "GET /scim/v2/Schemas": { expect: SCIM },
  "GET /scim/v2/Users": { expect: SCIM },
  "POST /scim/v2/Users": { expect: SCIM_CREATES, request: () => ({ body: { userName: unique("scim-user") } }) },
  "GET /scim/v2/Users/{id}": { expect: SCIM, request: async () => ({ params: { id: await newScimUser() } }) },
  "PUT /scim/v2/Users/{id}": {
    expect: SCIM,
    request: async () => ({ params: { id: await newScimUser() }, body: { userName: unique("scim-user"), active: true } }),
  },
  "PATCH /scim/v2/Users/{id}": {
    expect: SCIM,
    request: async () => ({
      params: { id: await newScimUser() },
      body: { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] },
    }),
  },
  "DELETE /scim/v2/Users/{id}": { expect: SCIM_DELETES, request: async () => ({ params: { id: await newScimUser() } }) },
  "GET /scim/v2/Groups": { expect: SCIM },
  "POST /scim/v2/Groups": { expect: SCIM_CREATES, request: () => ({ body: { displayName: unique("scim-group"), members: [] } }) },
  "GET /scim/v2/Groups/{id}": { expect: SCIM, request: async () => ({ params: { id: (await newScimGroup()).scimId } }) },
  "PUT /scim/v2/Groups/{id}": {
    expect: SCIM,
    request: async () => ({ params: { id: (await newScimGroup()).scimId }, body: { displayName: unique("scim-group") } }),
  },
  "PATCH /scim/v2/Groups/{id}": {
    expect: SCIM,
    request: async () => ({
      params: { id: (await newScimGroup()).scimId },
      body: { schemas: [PATCH_OP], Operations: [{ op: "Add", path: "members", value: [{ value: await newScimUser() }] }] },
    }),
  },
  "DELETE /scim/v2/Groups/{id}": { expect: SCIM_DELETES, request: async () => ({ params: { id: (await newScimGroup()).scimId } }) },
  "GET /api/admin/groups": { expect: ADMIN_ONLY },
  "GET /api/admin/groups/{groupId}": { expect: ADMIN_ONLY, request: async () => ({ params: { groupId: (await newScimGroup()).id } }) },

  // Roles per project (docs/project-roles.md): reading is anyone's signed in; changing, Admins' and the project's Owners'.
  "GET /api/admin/roles": { expect: READ },
  "GET /api/admin/projects/{projectId}/access": { expect: READ, request: () => ({ params: { projectId: "default" } }) },
  "GET /api/admin/projects/{projectId}/permissions": { expect: READ, request: () => ({ params: { projectId: "default" } }) },
  "POST /api/admin/projects/{projectId}/role/{roleId}/access": {
    expect: PROJECT_ACCESS,
    request: async () => ({ params: { projectId: "default", roleId: 6 }, body: { users: [{ id: await newUser() }] } }),
  },
  "PUT /api/admin/projects/{projectId}/users/{userId}/roles": {
    expect: PROJECT_ACCESS,
    request: async () => ({ params: { projectId: "default", userId: await newUser() }, body: { roles: [6] } }),
  },
  "DELETE /api/admin/projects/{projectId}/users/{userId}/roles": {
    expect: PROJECT_ACCESS,
    request: async () => ({ params: { projectId: "default", userId: await newUser() } }),
  },
  "PUT /api/admin/projects/{projectId}/groups/{groupId}/roles": {
    expect: PROJECT_ACCESS,
    request: async () => ({ params: { projectId: "default", groupId: (await newScimGroup()).id }, body: { roles: [5] } }),
  },
  "DELETE /api/admin/projects/{projectId}/groups/{groupId}/roles": {
    expect: PROJECT_ACCESS,
    request: async () => ({ params: { projectId: "default", groupId: (await newScimGroup()).id } }),
  },
};

async function newStrategy(): Promise<string> {
  return (await addFeatureStrategy(db, null, DEV, { name: "default" })).id;
}
async function newSegment(): Promise<number> {
  return (await createSegment(db, null, { name: unique("segment") })).id;
}
async function newFeature(): Promise<string> {
  return (await createFeature(db, null, "default", { name: unique("child") })).name;
}
async function archivedFeature(): Promise<string> {
  const featureName = await newFeature();
  await archiveFeature(db, setupAdmin, { projectId: "default", featureName });
  return featureName;
}
async function newTagType(): Promise<string> {
  return (await createTagType(db, null, { name: unique("tag-type") })).name;
}
async function newContextField(): Promise<string> {
  return (await createContextField(db, null, { name: unique("ctx"), legalValues: [{ value: "v" }] })).name;
}
async function newTag(): Promise<{ type: string; value: string }> {
  return createTag(db, null, { type: "simple", value: unique("tag") });
}
// Disabled: nothing is ever delivered to this address.
const ADDON = { provider: "webhook", enabled: false, parameters: { url: "http://127.0.0.1:9/matrix" }, events: ["feature-created"] };
async function newAddon(): Promise<number> {
  return (await createAddon(db, null, ADDON, { allowPrivateTargets: true })).id;
}
const scimBy = { kind: "scim-token", tokenId: 0, tokenName: "matrix-idp" } as const;
async function newScimUser(): Promise<string> {
  return (await createScimUser(db, scimBy, { userName: unique("scim-user") })).id;
}
async function newScimGroup(): Promise<{ id: number; scimId: string }> {
  const group = await createScimGroup(db, scimBy, { displayName: unique("scim-group") });
  const row = await db.selectFrom("groups").select("id").where("scim_id", "=", group.id).executeTakeFirstOrThrow();
  return { id: row.id, scimId: group.id };
}
async function newBanner(): Promise<number> {
  return (await createBanner(db, null, { message: "fixture" })).id;
}
async function newUser(): Promise<number> {
  return (await createUser(db, hasher, null, { username: unique("victim"), rootRole: RootRole.Viewer })).id;
}

const SERVER_ROUTES = ["GET /health", "GET /ready", "GET /docs/openapi.json", "GET /internal-backstage/prometheus"];

/** What the server really serves: the router's documented procedures and the few plain routes. */
function servedRoutes(): Map<string, { procedure: string; type: string; bodyField: string | undefined }> {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
  return new Map(
    restRoutes(appRouter).map((r) => [
      `${r.method} ${r.path}`,
      { procedure: r.procedurePath, type: procedures[r.procedurePath]!._def.type, bodyField: r.meta.bodyField },
    ]),
  );
}

function fillPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(String(params[name]));
  });
}

/** The tRPC input of a REST request: path parameters and body in one object. */
function trpcInput(bodyField: string | undefined, request: Request): unknown {
  if (bodyField) return { ...request.params, [bodyField]: request.body };
  return { ...(request.body as object | undefined), ...request.params };
}

const callers = new Map<PrincipalKind, Caller>();
async function callerFor(kind: PrincipalKind, fresh: boolean): Promise<Caller> {
  if (fresh) return newCaller(srv, kind);
  if (!callers.has(kind)) callers.set(kind, await newCaller(srv, kind));
  return callers.get(kind) as Caller;
}

test("the table names every route the server serves, and nothing else", () => {
  const served = [...servedRoutes().keys(), ...SERVER_ROUTES].sort();
  const missing = served.filter((r) => !(r in MATRIX));
  assert.equal(missing, [], `routes missing from the authorization matrix: ${missing.join(", ")}`);
  const stale = Object.keys(MATRIX).filter((r) => !served.includes(r));
  assert.equal(stale, [], `rows for routes that no longer exist: ${stale.join(", ")}`);
  for (const [route, row] of Object.entries(MATRIX)) assert.is(row.expect.split(" ").length, PRINCIPAL_KINDS.length, route);
});

test("the served OpenAPI document lists the same routes", async () => {
  const doc = (await srv.call("GET", "/docs/openapi.json")).json;
  const documented = Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => ["get", "post", "put", "patch", "delete"].includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  assert.equal(documented.sort(), [...servedRoutes().keys()].sort());
});

let cells = 0;
const failures: string[] = [];

async function runCell(transport: "rest" | "trpc", route: string, row: Row, kind: PrincipalKind, expected: number): Promise<void> {
  const caller = await callerFor(kind, row.fresh === true);
  const request = (await row.request?.(caller)) ?? {};
  const [method, template] = route.split(" ") as [string, string];
  let status: number;
  let body: unknown;
  if (transport === "rest") {
    const res = await srv.call(method, fillPath(template, request.params), {
      headers: caller.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    status = res.status;
    body = res.json;
  } else {
    const { procedure, type, bodyField } = servedRoutes().get(route)!;
    const input = trpcInput(bodyField, request);
    const res =
      type === "query"
        ? await srv.call("GET", `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: caller.headers })
        : await srv.call("POST", `/trpc/${procedure}`, { headers: caller.headers, body: input });
    status = res.status;
    body = res.json;
    // tRPC answers every success with 200.
    if (expected === 201 || expected === 202 || expected === 204) expected = 200;
  }
  cells++;
  if (status !== expected)
    failures.push(`${transport} ${route} as ${kind}: expected ${expected}, got ${status} ${JSON.stringify(body).slice(0, 200)}`);
}

test("every route x every principal gets the status in the table, over REST and over tRPC", async () => {
  const served = servedRoutes();
  for (const [route, row] of Object.entries(MATRIX)) {
    const expected = row.expect.split(" ").map(Number);
    for (const [i, kind] of PRINCIPAL_KINDS.entries()) {
      await runCell("rest", route, row, kind, expected[i] as number);
      if (served.has(route)) await runCell("trpc", route, row, kind, expected[i] as number);
    }
  }
  console.log(
    `authorization matrix: ${Object.keys(MATRIX).length} routes x ${PRINCIPAL_KINDS.length} principals, ${cells} cells checked (REST and tRPC)`,
  );
  assert.equal(failures, [], failures.join("\n"));
});

test.after(async () => {
  await srv.close();
  await srv.db.close();
});

test.run();
