export { appRouter, type AppRouter } from "./root.ts";
// The client ships these to the console and to apps outside the repository (packages/client/scripts/build.ts).
export { RootRole, type RootRoleId } from "@vexil/services";
export type { ApiDeps, Context, Logger, ProtectedContext } from "./context.ts";
export { createApiHandler, type ApiHandler } from "./api-handler.ts";
export { createRestBridge, sendError, sendJson, type RestHandler } from "./rest-bridge.ts";
export { toHttpFailure, type ErrorBody, type ErrorName, type HttpFailure } from "./error-response.ts";
export { createOpenApiDocument } from "./openapi-document.ts";
export { restRoutes, type RestRoute } from "./rest-routes.ts";
export type { Meta, RawHandler, RawRequest, RawRoute } from "./trpc.ts";
export { authenticate } from "./authenticate.ts";
export type { CookieSettings } from "./session-cookie.ts";
export { type ClientStreams, type ClientStreamsOptions, createClientStreams } from "./client-streaming/client-streams.ts";
