import { endSession, login } from "@vexil/services";
import { z } from "zod";
import { okSchema, userSchema } from "../schemas/user.ts";
import { toJson } from "../schemas/to-json.ts";
import { clearedSessionCookieHeader, sealSessionId, sessionCookieHeader } from "../session-cookie.ts";
import { publicProcedure } from "../trpc.ts";

export const authRouter = {
  login: publicProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/auth/simple/login",
        tags: ["Auth"],
        summary: "Log in",
        description: "Checks a username (or e-mail) and password and starts a session; the session cookie comes in Set-Cookie.",
        responseHeaders: z.object({
          "set-cookie": z.string().meta({ description: "The session cookie `vexil-session` (HttpOnly, SameSite=Lax, Path=/)" }),
        }),
      },
      access: "public",
      failures: ["PasswordMismatch", "DisabledError", "TooManyRequests"],
    })
    // A username is at most an e-mail's 320 characters; longer ones would only feed the throttle's keys.
    .input(z.strictObject({ username: z.string().min(1).max(320), password: z.string().min(1) }))
    .output(
      userSchema.extend({
        passwordChangeRequired: z
          .literal(true)
          .optional()
          .meta({ description: "Logged in with the default admin password: the session may only change it (docs/auth.md#passwords)." }),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { user, sessionId, passwordChangeRequired } = await login(ctx.db, ctx.deps.hasher, ctx.deps.loginPolicy, {
        username: input.username,
        password: input.password,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      });
      ctx.setHeader("set-cookie", sessionCookieHeader(await sealSessionId(sessionId, ctx.deps.cookies), ctx.deps.cookies));
      return { ...toJson(user), ...(passwordChangeRequired ? { passwordChangeRequired: true as const } : {}) };
    }),

  logout: publicProcedure
    .meta({
      openapi: { method: "POST", path: "/logout", tags: ["Auth"], summary: "End the current session" },
      access: "public",
    })
    .input(z.strictObject({}).optional())
    .output(okSchema)
    .mutation(async ({ ctx }) => {
      if (ctx.principal?.kind === "user" && ctx.principal.sessionId) await endSession(ctx.db, ctx.principal.sessionId);
      ctx.setHeader("set-cookie", clearedSessionCookieHeader(ctx.deps.cookies));
      return {};
    }),
};
