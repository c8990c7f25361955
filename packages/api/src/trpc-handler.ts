import type { IncomingMessage, ServerResponse } from "node:http";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { Context } from "./context.ts";
import { toHttpFailure } from "./error-response.ts";
import { appRouter } from "./root.ts";

export type TrpcHandler = (req: IncomingMessage, res: ServerResponse, ctx: Context) => void;

/** Serves the same router at `/trpc` for typed TypeScript clients. */
export function createTrpcHandler(options: { bodyLimit: number }): TrpcHandler {
  const contexts = new WeakMap<IncomingMessage, Context>();
  const handler = createHTTPHandler({
    router: appRouter,
    basePath: "/trpc/",
    maxBodySize: options.bodyLimit,
    createContext: ({ req }) => contexts.get(req) as Context,
    onError: ({ error, ctx }) => {
      const failure = toHttpFailure(error);
      if (failure.unexpected) ctx?.log.error({ err: failure.unexpected, errorId: failure.body.id }, "unexpected error");
    },
  });
  return (req, res, ctx) => {
    contexts.set(req, ctx);
    handler(req, res);
  };
}
