import type { IncomingMessage, ServerResponse } from "node:http";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { Context } from "./context.ts";
import { toHttpFailure } from "./error-response.ts";
import { appRouter } from "./root.ts";

export type TrpcHandler = (req: IncomingMessage, res: ServerResponse, ctx: Context) => void;

/**
 * Most calls one `/trpc` batch may carry. Without a cap, one request within the body limit could
 * run thousands of procedures and sidestep every per-request limit; a batching client sets its
 * link's `maxItems` to this or less.
 */
const TRPC_MAX_BATCH_SIZE = 50;

/** Serves the same router at `/trpc` for typed TypeScript clients. */
export function createTrpcHandler(options: { bodyLimit: number }): TrpcHandler {
  const contexts = new WeakMap<IncomingMessage, Context>();
  const handler = createHTTPHandler({
    router: appRouter,
    basePath: "/trpc/",
    maxBodySize: options.bodyLimit,
    maxBatchSize: TRPC_MAX_BATCH_SIZE,
    createContext: ({ req }) => contexts.get(req) as Context,
    // A 429 or 503 says how long to wait in Retry-After over tRPC too, as it does over REST.
    responseMeta: ({ errors }) => ({ headers: Object.assign({}, ...errors.map((error) => toHttpFailure(error).headers)) }),
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
