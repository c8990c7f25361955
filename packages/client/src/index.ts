export { createRestClient, type RestClient, type RestClientOptions } from "./rest-client.ts";
export { createTrpcClient, toVexilApiError, type TrpcClientOptions } from "./trpc-client.ts";
export { VexilApiError, type VexilErrorDetail } from "./vexil-api-error.ts";
export { REST_ROUTES } from "./rest-routes.ts";
export type { RestRoute } from "./rest-route.ts";
export { RootRole, type RootRoleId } from "./root-roles.ts";
export type { AppRouter, RouterInputs, RouterOutputs } from "./procedures.ts";
