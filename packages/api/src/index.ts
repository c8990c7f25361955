export { appRouter, type AppRouter } from "./root.ts";
// The client ships these to the console and to apps outside the repository (packages/client/scripts/build.ts).
export { RootRole, type RootRoleId } from "@vexil/services";
export type { ApiDeps, Context, Logger } from "./context.ts";
export { createRestBridge, sendFailure, sendJson, type RestHandler } from "./rest-bridge.ts";
export { toHttpFailure, type ErrorBody, type ErrorName, type HttpFailure } from "./error-response.ts";
export { createOpenApiDocument } from "./openapi-document.ts";
export { restRoutes, type RestRoute } from "./rest-routes.ts";
export { createTrpcHandler, type TrpcHandler } from "./trpc-handler.ts";
export { authenticate } from "./authenticate.ts";
export type { CookieSettings } from "./session-cookie.ts";
export { handleClientFeatures } from "./client-features-handler.ts";
export { createFrontendHandler, type FrontendHandler } from "./frontend-handler.ts";
export { handleClientDelta } from "./client-streaming/client-delta-handler.ts";
export { handleClientStreaming } from "./client-streaming/client-streaming-handler.ts";
export { type ClientStreams, type ClientStreamsOptions, createClientStreams } from "./client-streaming/client-streams.ts";
