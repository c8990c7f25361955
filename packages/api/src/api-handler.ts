import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "./context.ts";
import { createRestBridge } from "./rest-bridge.ts";
import { setRouteLabel } from "./route-label.ts";
import { appRouter } from "./root.ts";
import { createTrpcHandler } from "./trpc-handler.ts";

export type ApiHandler = (req: IncomingMessage, res: ServerResponse, ctx: Context) => Promise<void>;

/**
 * The router over both transports: `/trpc/` for typed TypeScript clients, and every route of its
 * table over REST (the SDK paths included, through their raw handlers).
 */
export function createApiHandler(options: { bodyLimit: number }): ApiHandler {
  const trpc = createTrpcHandler(options);
  const rest = createRestBridge({ router: appRouter, bodyLimit: options.bodyLimit });
  return (req, res, ctx) => {
    if (req.url?.startsWith("/trpc/")) {
      setRouteLabel(res, "/trpc");
      trpc(req, res, ctx);
      return Promise.resolve();
    }
    return rest(req, res, ctx);
  };
}
