import { findSessionPrincipal, findTokenPrincipal, type Principal } from "@vexil/services";
import type { ApiDeps } from "./context.ts";
import { readSessionCookie, unsealSessionId } from "./session-cookie.ts";

/**
 * Who is calling, from the Authorization header (API or personal token, `Bearer ` optional) or
 * else the session cookie. Anything unknown, expired, revoked or tampered is nobody.
 */
export async function authenticate(deps: ApiDeps, headers: { authorization?: string; cookie?: string }): Promise<Principal | null> {
  const authorization = headers.authorization?.trim();
  if (authorization) {
    const token = authorization.replace(/^Bearer\s+/i, "");
    return token ? findTokenPrincipal(deps.db, token) : null;
  }
  const sealed = readSessionCookie(headers.cookie);
  if (!sealed) return null;
  const sessionId = await unsealSessionId(sealed, deps.cookies);
  return sessionId ? findSessionPrincipal(deps.db, sessionId, deps.loginPolicy.sessions) : null;
}
