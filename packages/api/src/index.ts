export { appRouter, type AppRouter } from "./root.ts";
// The client ships these to the console and to apps outside the repository (packages/client/scripts/build.ts).
export { RootRole } from "@vexil/services";
export type { ApiDeps, Context, Logger } from "./context.ts";
export { createApiHandler } from "./api-handler.ts";
export { sendError, sendJson } from "./rest-bridge.ts";
export { routeLabelOf, setRouteLabel } from "./route-label.ts";
export type { ErrorName } from "./error-response.ts";
export { createOpenApiDocument } from "./openapi-document.ts";
export { restRoutes } from "./rest-routes.ts";
export { authenticate, presentedCredential } from "./authenticate.ts";
export { createClientStreams } from "./client-streaming/client-streams.ts";
