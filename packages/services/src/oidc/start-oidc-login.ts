import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { checkedReturnTo } from "./return-to.ts";
import { type OidcSignIn, stateHash } from "./oidc-sign-in.ts";

/**
 * Starts a sign-in (docs/oidc.md#the-flow): checks where the browser returns to, makes the
 * authorization request, and keeps its checks in Postgres until the callback spends them (on any
 * instance, once). Returns the provider's URL and the state, which the browser's sealed cookie keeps.
 */
export async function startOidcLogin(
  db: Kysely<Database>,
  oidc: OidcSignIn,
  input: { returnTo?: string | undefined },
): Promise<{ url: string; state: string }> {
  const returnTo = checkedReturnTo(input.returnTo);
  const { url, checks } = await oidc.client.authorizationRequest();
  await db
    .insertInto("oidc_logins")
    .values({
      state_hash: stateHash(checks.state),
      nonce: checks.nonce,
      code_verifier: checks.codeVerifier,
      return_to: returnTo,
      expires_at: sql<Date>`now() + make_interval(secs => ${oidc.settings.loginTtlSeconds})`,
    })
    .execute();
  return { url, state: checks.state };
}
