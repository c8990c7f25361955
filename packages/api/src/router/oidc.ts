import { finishOidcLogin, startOidcLogin } from "@vexil/services";
import { z } from "zod";
import { handleOidcCallback, handleOidcLogin, requireOidc } from "../oidc/oidc-handlers.ts";
import { clearedStateCookieHeader, stateCookieHeader, stateFromCookie } from "../oidc/oidc-state-cookie.ts";
import { toJson } from "../schemas/to-json.ts";
import { userSchema } from "../schemas/user.ts";
import { sealSessionId, sessionCookieHeader } from "../session-cookie.ts";
import { publicProcedure } from "../trpc.ts";

const tags = ["Auth"];
const param = (description: string) => z.string().max(4096).optional().meta({ description });

// Single sign-on with OpenID Connect (docs/oidc.md). Over REST the raw handlers answer a browser: redirects, and
// pages for refusals; over tRPC the procedures do the same steps and answer JSON.
export const oidcRouter = {
  loginOptions: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/auth/login-options",
        tags,
        summary: "How people can log in here",
        description:
          "Whether password login is on, and the single sign-on provider's name and start path when it is set up; the console's login page shows what this says.",
      },
      access: "public",
    })
    .input(z.object({}).optional())
    .output(
      z.object({
        password: z.boolean(),
        oidc: z.object({ name: z.string(), loginPath: z.string() }).nullable(),
      }),
    )
    .query(({ ctx }) => ({
      password: ctx.deps.loginPolicy.passwordLogin !== false,
      oidc: ctx.deps.oidc ? { name: ctx.deps.oidc.settings.providerName, loginPath: "/auth/oidc/login" } : null,
    })),

  login: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/auth/oidc/login",
        tags,
        summary: "Start single sign-on",
        description:
          "Sends the browser to the identity provider (authorization code flow with PKCE, state and nonce); `returnTo`, a path of this server, is where it lands after signing in (`/` by default). A 404 where single sign-on is not set up.",
      },
      access: "public",
      failures: ["ValidationError", "NotFoundError"],
      raw: {
        serve: handleOidcLogin,
        redirect: "To the identity provider's authorization endpoint; Set-Cookie carries the sign-in's sealed state.",
      },
    })
    .input(z.object({ returnTo: param("Where to land after signing in: a path of this server, e.g. /projects") }))
    .output(z.object({ url: z.string() }))
    .query(async ({ ctx, input }) => {
      const oidc = requireOidc(ctx);
      const { url, state } = await startOidcLogin(ctx.db, oidc, { returnTo: input.returnTo });
      ctx.setHeader("set-cookie", await stateCookieHeader(state, ctx.deps.cookies, oidc.settings.loginTtlSeconds));
      return { url };
    }),

  callback: publicProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/auth/oidc/callback",
        tags,
        summary: "Finish single sign-on (the identity provider's redirect)",
        description:
          "Checks the state against the browser's sealed cookie and spends it, exchanges the code with the PKCE verifier, verifies the ID token (signature, issuer, audience, expiry, nonce), then signs the user in with the same session cookie as a password login. A refusal is a page that says why, and stores nothing.",
      },
      access: "public",
      failures: ["ValidationError", "AuthenticationRequired", "NoAccessError", "NotFoundError", "ConflictError"],
      raw: {
        serve: handleOidcCallback,
        redirect: "To `returnTo` of the sign-in's start; Set-Cookie carries the session cookie `vexil-session`.",
      },
    })
    .input(
      z.object({
        code: param("The authorization code"),
        state: param("The state the sign-in started with"),
        iss: param("The issuer, where the provider sends it"),
        error: param("The provider's error code, when it did not sign the user in"),
        error_description: param("The provider's explanation of the error"),
      }),
    )
    .output(z.object({ user: userSchema, returnTo: z.string() }))
    .query(async ({ ctx, input }) => {
      const oidc = requireOidc(ctx);
      const query = new URLSearchParams(Object.entries(input).filter((entry): entry is [string, string] => entry[1] !== undefined));
      const cookieState = await stateFromCookie(ctx.cookie, ctx.deps.cookies);
      ctx.setHeader("set-cookie", clearedStateCookieHeader(ctx.deps.cookies));
      const { user, sessionId, returnTo } = await finishOidcLogin(ctx.db, oidc, ctx.deps.loginPolicy.sessions, {
        query,
        cookieState,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      });
      ctx.setHeader("set-cookie", [
        sessionCookieHeader(await sealSessionId(sessionId, ctx.deps.cookies), ctx.deps.cookies),
        clearedStateCookieHeader(ctx.deps.cookies),
      ]);
      return { user: toJson(user), returnTo };
    }),
};
