import { timingSafeEqual } from "node:crypto";
import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import type { SessionPolicy } from "../auth/sessions.ts";
import { ValidationError } from "../errors/domain-error.ts";
import type { User } from "../users/user.ts";
import { oidcIdentity } from "./oidc-identity.ts";
import { type OidcSignIn, stateHash } from "./oidc-sign-in.ts";
import { signInOidcUser } from "./sign-in-oidc-user.ts";

export interface OidcCallback {
  /** The callback's query string, as the provider sent the browser back with it. */
  query: URLSearchParams;
  /** The state the browser's sealed cookie carries; null when it has none, or it did not open. */
  cookieState: string | null;
  ip: string;
  userAgent: string | null;
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Finishes a sign-in (docs/oidc.md#the-flow): the state must be the one this browser started with
 * and one not spent yet (it is spent now, whatever follows); openid-client then checks the answer,
 * exchanges the code with the PKCE verifier and verifies the ID token (signature, issuer, audience,
 * expiry, nonce). Only then is the user found, linked or created, and a session started.
 */
export async function finishOidcLogin(
  db: Kysely<Database>,
  oidc: OidcSignIn,
  sessions: SessionPolicy,
  callback: OidcCallback,
): Promise<{ user: User; sessionId: string; returnTo: string }> {
  const state = callback.query.get("state");
  if (!state || !callback.cookieState || !sameText(state, callback.cookieState)) {
    throw new ValidationError("This sign-in did not start in this browser, or it took too long. Sign in again.", [
      { path: "state", message: "not the state this browser's sign-in started with" },
    ]);
  }
  const attempt = await db
    .deleteFrom("oidc_logins")
    .where("state_hash", "=", stateHash(state))
    .where("expires_at", ">", sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
  if (!attempt) {
    throw new ValidationError("This sign-in was finished already, or it expired. Sign in again.", [
      { path: "state", message: "used already or expired" },
    ]);
  }
  const callbackUrl = new URL(oidc.settings.redirectUrl);
  callbackUrl.search = callback.query.toString();
  const claims = await oidc.client.verifiedClaims(callbackUrl, { state, nonce: attempt.nonce, codeVerifier: attempt.code_verifier });
  const signedIn = await signInOidcUser(db, oidcIdentity(claims, oidc.settings), oidc.settings, sessions, callback);
  return { ...signedIn, returnTo: attempt.return_to };
}
