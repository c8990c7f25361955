import type { CredentialLookup } from "@vexil/db";
import { lookUpSessionPrincipal, lookUpTokenPrincipal, type Principal } from "@vexil/services";
import type { ApiDeps } from "./context.ts";
import { readSessionCookie, unsealSessionId } from "./session-cookie.ts";

/**
 * Who is calling, from the Authorization header (API or personal token, `Bearer ` optional), else
 * the X-API-Key header (the same tokens, as OpenFeature's providers send them), else the session
 * cookie. Anything unknown, expired, revoked or tampered is nobody. A credential the cache holds is
 * answered at once; one it does not, by a promise of the look-up.
 */
export function authenticate(
  deps: ApiDeps,
  headers: { authorization?: string | undefined; apiKey?: string | string[] | undefined; cookie?: string | undefined },
): Principal | null | Promise<Principal | null> {
  const apiKey = typeof headers.apiKey === "string" ? headers.apiKey : undefined;
  const authorization = (headers.authorization ?? apiKey)?.trim();
  if (authorization) {
    const token = authorization.replace(/^Bearer\s+/i, "");
    return token ? deps.principals.resolve(`token ${token}`, () => lookUpTokenPrincipal(deps.db, token)) : null;
  }
  const sealed = readSessionCookie(headers.cookie);
  if (!sealed) return null;
  // Keyed by the sealed value, so that a cached session also skips unsealing it.
  return deps.principals.resolve(`cookie ${sealed}`, async (): Promise<CredentialLookup<Principal> | null> => {
    const sessionId = await unsealSessionId(sealed, deps.cookies);
    return sessionId ? lookUpSessionPrincipal(deps.db, sessionId, deps.loginPolicy.sessions) : null;
  });
}

/** Which kind of credential a request carries, read as authenticate reads it: what a 401 names when it is refused. */
export function presentedCredential(headers: {
  authorization?: string | undefined;
  apiKey?: string | string[] | undefined;
  cookie?: string | undefined;
}): "token" | "session" | null {
  const apiKey = typeof headers.apiKey === "string" ? headers.apiKey : undefined;
  if ((headers.authorization ?? apiKey)?.trim()) return "token";
  return readSessionCookie(headers.cookie) ? "session" : null;
}
