import type { IncomingMessage, ServerResponse } from "node:http";
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import type { SchemaObject } from "openapi3-ts/oas31";
import type { OpenApiMeta } from "trpc-to-openapi";
import { type Access, accessScopeFor, checkAccess } from "./access.ts";
import type { Context, ProtectedContext } from "./context.ts";
import { type ErrorName, errorShape, type FailureBody, toHttpFailure } from "./error-response.ts";
import { assertStorableText } from "./storable-text.ts";

/** What the REST bridge hands a raw handler besides the request itself. */
interface RawRequest {
  /** The path's `{name}` parameters, decoded. */
  params: Record<string, string>;
  /** The JSON body, read and checked (415, 413, malformed) for a method that has one; undefined when none was sent. */
  body: unknown;
  /** The body's text as sent (undefined when none was): a repeated poll is known by it. */
  text: string | undefined;
}

/**
 * Answers a route over REST in place of its procedure, for what a procedure cannot say: a stream,
 * a 304, another protocol's bodies. The bridge has matched the route, checked access
 * (so the caller is someone) and read the body; whatever the handler throws is answered by sendError.
 */
export type RawHandler = (req: IncomingMessage, res: ServerResponse, ctx: ProtectedContext, request: RawRequest) => Promise<void>;

/** A route served by a raw handler, and what it answers beyond the procedure's JSON (for the OpenAPI document). */
interface RawRoute {
  serve: RawHandler;
  /** A request whose If-None-Match names the ETag of the 200 gets a 304 with no body. */
  notModified?: boolean;
  /** The 200 is a stream of server-sent events, as described here; a caller that accepts only JSON gets the procedure's output. */
  eventStream?: string;
  /** The route answers its failures in another protocol's body (OFREP's): every failure over REST, the access check's too, goes through it. */
  failureBody?: FailureBody;
  /**
   * The route's credential is in its path, and its handler checks it (an event stream a browser's
   * EventSource opens, which sends no header): the route is public, and the handler's context has
   * no principal.
   */
  credentialInPath?: boolean;
  /** The OpenAPI schema of those failure bodies, in place of the one Error schema. */
  failureSchema?: SchemaObject;
  /**
   * The route is a step of a browser's sign-in (docs/oidc.md#the-flow): it is public, answers a 302
   * (described here) and its failures as a page for a person; its handler uses no principal.
   */
  redirect?: string;
  /**
   * The protocol's own JSON media type (SCIM's `application/scim+json`): bodies are taken in it as
   * well as in application/json, and answers, failures too, are sent in it.
   */
  mediaType?: string;
}

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
  /**
   * The input field naming the project the call acts in, where the path names none (an import's
   * `project`): the permission is checked in that project (docs/project-roles.md#which-routes).
   */
  projectField?: string;
  /** Open to a session that must change its password first (the default admin password's, docs/auth.md#passwords). */
  beforePasswordChange?: true;
  /**
   * Failures of the procedure's own rules that its route does not imply (a taken name, a wrong
   * password); the OpenAPI document lists them with the ones every route of its kind can answer.
   */
  failures?: ErrorName[];
  /** Over REST the route is served by this raw handler instead of the procedure, which still serves `/trpc`. */
  raw?: RawRoute;
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
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

/**
 * Services throw status-free errors, which tRPC would report as INTERNAL_SERVER_ERROR; this gives
 * typed clients the code that matches the REST status.
 */
function coded(error: TRPCError): TRPCError {
  if (error.code !== "INTERNAL_SERVER_ERROR") return error;
  const code = CODE_BY_STATUS[toHttpFailure(error).status];
  return code ? new TRPCError({ code, message: error.message, cause: error.cause }) : error;
}

async function checked<R extends { ok: boolean }>(check: () => Promise<void>, next: () => Promise<R>): Promise<R> {
  try {
    await check();
  } catch (cause) {
    throw coded(cause instanceof TRPCError ? cause : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause }));
  }
  const result = await next();
  if (!result.ok) {
    const failed = result as R & { error: TRPCError };
    return { ...failed, error: coded(failed.error) };
  }
  return result;
}

// Unstorable text is checked after the access rule, so that 401 and 403 still come before any 400;
// one middleware per kind of procedure, since tRPC pays a round of object spreads for each on every call.
export const publicProcedure = t.procedure.use(({ getRawInput, next }) =>
  checked(async () => assertStorableText(await getRawInput().catch(() => undefined)), next),
);

/** Narrows `ctx.principal` to a caller who passed the procedure's access rule. */
export const protectedProcedure = t.procedure.use(({ ctx, meta, getRawInput, next }) =>
  checked(
    async () => {
      const raw = await getRawInput().catch(() => undefined);
      if (!ctx.accessChecked) {
        const access = meta?.access ?? "authenticated";
        const scope = await accessScopeFor(ctx.db, ctx.principal, access, raw, meta?.projectField);
        checkAccess(ctx.principal, access, scope, meta?.beforePasswordChange, ctx.refusedCredential);
      }
      assertStorableText(raw);
    },
    () => next({ ctx: { ...ctx, principal: ctx.principal as NonNullable<typeof ctx.principal> } }),
  ),
);
