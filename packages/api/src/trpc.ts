import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import type { OpenApiMeta } from "trpc-to-openapi";
import { type Access, checkAccess } from "./access.ts";
import type { Context } from "./context.ts";
import { errorShape, toHttpFailure } from "./error-response.ts";

export type Meta = OpenApiMeta<{
  /** Who may call it; procedures built on `protectedProcedure` default to "authenticated". */
  access?: Access;
  /** The status of a success over REST (200 when absent). */
  successStatus?: number;
  /**
   * For operations whose REST body is not an object (a JSON array): the input field that
   * receives the whole body.
   */
  bodyField?: string;
}>;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // Never a stack trace or an internal message, whatever NODE_ENV says.
    isDev: false,
    errorFormatter: ({ shape, error }) => {
      const body = errorShape(error);
      return { ...shape, message: body.message, data: { ...shape.data, ...body } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

const CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

/**
 * Services throw status-free errors, which tRPC would report as INTERNAL_SERVER_ERROR; this gives
 * typed clients the code that matches the REST status.
 */
export const publicProcedure = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code === "INTERNAL_SERVER_ERROR") {
    const code = CODE_BY_STATUS[toHttpFailure(result.error).status];
    if (code) return { ...result, error: new TRPCError({ code, message: result.error.message, cause: result.error.cause }) };
  }
  return result;
});

/** Narrows `ctx.principal` to a caller who passed the procedure's access rule. */
export const protectedProcedure = publicProcedure.use(async ({ ctx, meta, getRawInput, next }) => {
  const raw = (await getRawInput().catch(() => undefined)) as { environment?: unknown } | undefined;
  const environment = typeof raw?.environment === "string" ? raw.environment : undefined;
  checkAccess(ctx.principal, meta?.access ?? "authenticated", environment);
  return next({ ctx: { ...ctx, principal: ctx.principal } });
});
