export { appRouter, type AppRouter } from "./root.ts";
export type { ApiDeps, Context, Logger } from "./context.ts";
export { createRestBridge, sendFailure, sendJson, type RestHandler } from "./rest-bridge.ts";
export { toHttpFailure, type ErrorBody, type HttpFailure } from "./error-response.ts";
export { createOpenApiDocument } from "./openapi-document.ts";
export { createTrpcHandler, type TrpcHandler } from "./trpc-handler.ts";
export { authenticate } from "./authenticate.ts";
export type { CookieSettings } from "./session-cookie.ts";
export { handleClientFeatures } from "./client-features-handler.ts";
