import type { IncomingMessage } from "node:http";
import { finishOidcLogin, NotFoundError, type OidcSignIn, startOidcLogin } from "@vexil/services";
import type { Context } from "../context.ts";
import { sealSessionId, sessionCookieHeader } from "../session-cookie.ts";
import type { RawHandler } from "../trpc.ts";
import { clearedStateCookieHeader, stateCookieHeader, stateFromCookie } from "./oidc-state-cookie.ts";
import { sendRefusalPage } from "./refusal-page.ts";

/** Single sign-on as configured; a 404 where it is not (docs/oidc.md#settings). */
export function requireOidc(ctx: Context): OidcSignIn {
  if (!ctx.deps.oidc) throw new NotFoundError("Single sign-on is not set up on this server: log in with a username and password.");
  return ctx.deps.oidc;
}

const queryOf = (req: IncomingMessage) => new URL(req.url ?? "/", "http://vexil.invalid").searchParams;

/** `GET /auth/oidc/login`: to the identity provider, with the state in a sealed cookie (docs/oidc.md#the-flow). */
export const handleOidcLogin: RawHandler = async (req, res, ctx) => {
  try {
    const oidc = requireOidc(ctx);
    const { url, state } = await startOidcLogin(ctx.db, oidc, { returnTo: queryOf(req).get("returnTo") ?? undefined });
    res.writeHead(302, { location: url, "set-cookie": await stateCookieHeader(state, ctx.deps.cookies, oidc.settings.loginTtlSeconds) });
    res.end();
  } catch (error) {
    sendRefusalPage(res, ctx.log, error);
  }
};

/**
 * `GET /auth/oidc/callback`: where the provider sends the browser back. A good answer gets the same
 * session cookie as a password login and a redirect to where the sign-in started; any other gets a
 * page that says why (docs/oidc.md#refusals). The state cookie is spent either way.
 */
export const handleOidcCallback: RawHandler = async (req, res, ctx) => {
  const cleared = clearedStateCookieHeader(ctx.deps.cookies);
  try {
    const oidc = requireOidc(ctx);
    const { sessionId, returnTo } = await finishOidcLogin(ctx.db, oidc, ctx.deps.loginPolicy.sessions, {
      query: queryOf(req),
      cookieState: await stateFromCookie(req.headers.cookie, ctx.deps.cookies),
      ip: ctx.ip,
      userAgent: ctx.userAgent,
    });
    const session = sessionCookieHeader(await sealSessionId(sessionId, ctx.deps.cookies), ctx.deps.cookies);
    res.writeHead(302, { location: returnTo, "set-cookie": [session, cleared] });
    res.end();
  } catch (error) {
    sendRefusalPage(res, ctx.log, error, { "set-cookie": cleared });
  }
};
