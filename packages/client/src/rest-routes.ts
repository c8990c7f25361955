import type { RouterInputs } from "./procedures.ts";

export interface RestRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The documented path; `{name}` takes the input field of that name. */
  path: string;
  /** For a body that is not an object: the input field sent as the whole body. */
  body?: string;
}

/** One route for every procedure of the router: the compiler refuses a missing or an extra one. */
type RestRouteTable = { [G in keyof RouterInputs]: { [P in keyof RouterInputs[G]]: RestRoute } };

const VARIANTS = "/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants";
const FEATURE_ENV = "/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}";
const STRATEGY = `${FEATURE_ENV}/strategies/{strategyId}`;

/** Where each procedure lives over REST; a test checks it against the server's router. */
export const REST_ROUTES = {
  environments: {
    list: { method: "GET", path: "/api/admin/environments" },
    create: { method: "POST", path: "/api/admin/environments" },
  },
  projects: {
    list: { method: "GET", path: "/api/admin/projects" },
    create: { method: "POST", path: "/api/admin/projects" },
    enableEnvironment: { method: "POST", path: "/api/admin/projects/{projectId}/environments" },
  },
  features: {
    list: { method: "GET", path: "/api/admin/projects/{projectId}/features" },
    create: { method: "POST", path: "/api/admin/projects/{projectId}/features" },
    get: { method: "GET", path: "/api/admin/projects/{projectId}/features/{featureName}" },
    update: { method: "PUT", path: "/api/admin/projects/{projectId}/features/{featureName}" },
    variants: { method: "GET", path: VARIANTS },
    replaceVariants: { method: "PUT", path: VARIANTS, body: "variants" },
    patchVariants: { method: "PATCH", path: VARIANTS, body: "patch" },
  },
  auth: {
    login: { method: "POST", path: "/auth/simple/login" },
    logout: { method: "POST", path: "/logout" },
  },
  users: {
    create: { method: "POST", path: "/api/admin/user-admin" },
    list: { method: "GET", path: "/api/admin/user-admin" },
    delete: { method: "DELETE", path: "/api/admin/user-admin/{id}" },
    changePassword: { method: "POST", path: "/api/admin/user-admin/{id}/change-password" },
    changeOwnPassword: { method: "POST", path: "/api/admin/user/change-password" },
  },
  apiTokens: {
    create: { method: "POST", path: "/api/admin/api-tokens" },
    list: { method: "GET", path: "/api/admin/api-tokens" },
    delete: { method: "DELETE", path: "/api/admin/api-tokens/{id}" },
    createPersonal: { method: "POST", path: "/api/admin/user/tokens" },
    listPersonal: { method: "GET", path: "/api/admin/user/tokens" },
    deletePersonal: { method: "DELETE", path: "/api/admin/user/tokens/{id}" },
  },
  changeRequests: {
    config: { method: "GET", path: "/api/admin/projects/{projectId}/change-requests/config" },
    setConfig: { method: "PUT", path: "/api/admin/projects/{projectId}/environments/{environment}/change-requests/config" },
    addChange: { method: "POST", path: "/api/admin/projects/{projectId}/environments/{environment}/change-requests" },
    pending: { method: "GET", path: "/api/admin/projects/{projectId}/change-requests/pending" },
    get: { method: "GET", path: "/api/admin/projects/{projectId}/change-requests/{id}" },
    setState: { method: "PUT", path: "/api/admin/projects/{projectId}/change-requests/{id}/state" },
  },
  banners: {
    list: { method: "GET", path: "/api/admin/banners" },
    create: { method: "POST", path: "/api/admin/banners" },
    update: { method: "PUT", path: "/api/admin/banners/{id}" },
    enable: { method: "POST", path: "/api/admin/banners/{id}/on" },
    disable: { method: "POST", path: "/api/admin/banners/{id}/off" },
    delete: { method: "DELETE", path: "/api/admin/banners/{id}" },
  },
  featureStrategies: {
    enable: { method: "POST", path: `${FEATURE_ENV}/on` },
    disable: { method: "POST", path: `${FEATURE_ENV}/off` },
    list: { method: "GET", path: `${FEATURE_ENV}/strategies` },
    add: { method: "POST", path: `${FEATURE_ENV}/strategies` },
    get: { method: "GET", path: STRATEGY },
    update: { method: "PUT", path: STRATEGY },
    delete: { method: "DELETE", path: STRATEGY },
  },
  strategyTypes: {
    list: { method: "GET", path: "/api/admin/strategies" },
    create: { method: "POST", path: "/api/admin/strategies" },
  },
  segments: {
    list: { method: "GET", path: "/api/admin/segments" },
    create: { method: "POST", path: "/api/admin/segments" },
    get: { method: "GET", path: "/api/admin/segments/{id}" },
    update: { method: "PUT", path: "/api/admin/segments/{id}" },
    delete: { method: "DELETE", path: "/api/admin/segments/{id}" },
  },
  clientFeatures: {
    list: { method: "GET", path: "/api/client/features" },
    get: { method: "GET", path: "/api/client/features/{featureName}" },
  },
  clientMetrics: {
    register: { method: "POST", path: "/api/client/register" },
    metrics: { method: "POST", path: "/api/client/metrics" },
    applications: { method: "GET", path: "/api/admin/metrics/applications" },
    featureRaw: { method: "GET", path: "/api/admin/client-metrics/features/{featureName}/raw" },
  },
  dependencies: {
    add: { method: "POST", path: "/api/admin/projects/{projectId}/features/{featureName}/dependencies" },
    delete: { method: "DELETE", path: "/api/admin/projects/{projectId}/features/{featureName}/dependencies/{parent}" },
  },
} as const satisfies RestRouteTable;
