import * as client from "openid-client";
import { AuthenticationRequired, type DomainError, ServiceUnavailable } from "../errors/domain-error.ts";
import type { OidcSettings } from "./oidc-settings.ts";

/** What the callback must check of the provider's answer, as the sign-in's start made them. */
interface OidcChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider's side of a sign-in, through openid-client (certified): the request out, the verified answer back. */
export interface OidcClient {
  /** A new authorization request (code flow, PKCE S256, state, nonce): where to send the browser, and what to check later. */
  authorizationRequest(): Promise<{ url: string; checks: OidcChecks }>;
  /**
   * Checks the callback (state, `iss`, errors), exchanges its code with the PKCE verifier, verifies
   * the ID token (signature, issuer, audience, expiry, nonce) and returns its claims.
   */
  verifiedClaims(callbackUrl: URL, checks: OidcChecks): Promise<Record<string, unknown>>;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);

/** True when the provider could not be reached at all (as opposed to answering no). */
function unreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === "string" && (UNREACHABLE_CODES.has(code) || code.startsWith("UND_ERR_"))) return true;
    if (name === "TimeoutError" || name === "AbortError" || (name === "TypeError" && message === "fetch failed")) return true;
  }
  return false;
}

/** Why the provider's answer is refused, as a sentence for the person signing in. */
function refusal(error: unknown): DomainError {
  if (unreachable(error)) return new ServiceUnavailable("The identity provider cannot be reached right now; try again shortly.");
  if (error instanceof client.AuthorizationResponseError) {
    return new AuthenticationRequired(`The identity provider did not sign you in: ${error.error_description ?? error.error}.`);
  }
  if (error instanceof client.ResponseBodyError) {
    return new AuthenticationRequired(
      `The identity provider refused the sign-in code (${error.error}): it was used already, has expired, or was not issued to Vexil. Sign in again.`,
    );
  }
  // openid-client says which check failed in general; the error it wraps names the claim ("nonce", "aud", "exp").
  const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const reason = inner instanceof Error ? inner.message : String(inner);
  return new AuthenticationRequired(`The identity provider's answer failed a check (${reason.slice(0, 200)}). Sign in again.`);
}

export function createOidcClient(settings: OidcSettings): OidcClient {
  const issuer = new URL(settings.issuerUrl);
  // Plain HTTP only to this machine (a provider started beside Vexil, as in its tests); anywhere else HTTPS.
  const execute = issuer.protocol === "http:" && LOOPBACK.has(issuer.hostname) ? [client.allowInsecureRequests] : [];
  const authentication = settings.clientSecret === undefined ? client.None() : client.ClientSecretBasic(settings.clientSecret);

  // Discovered at the first sign-in and kept; a failure is not kept, so the next sign-in tries again.
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = (): Promise<client.Configuration> => {
    if (!discovered) {
      const attempt = client.discovery(issuer, settings.clientId, undefined, authentication, { execute, timeout: 10 });
      discovered = attempt;
      attempt.catch(() => {
        if (discovered === attempt) discovered = undefined;
      });
    }
    return discovered.catch((error: unknown) => {
      throw new ServiceUnavailable(
        unreachable(error)
          ? "The identity provider cannot be reached right now; try again shortly."
          : "The identity provider's configuration could not be read; the operator should check OIDC_ISSUER_URL.",
      );
    });
  };

  return {
    async authorizationRequest() {
      const config = await configuration();
      const checks = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUrl,
        scope: settings.scopes,
        response_type: "code",
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: "S256",
        state: checks.state,
        nonce: checks.nonce,
      });
      return { url: url.href, checks };
    },

    async verifiedClaims(callbackUrl, checks) {
      const config = await configuration();
      try {
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new Error("no ID token");
        return { ...claims } as Record<string, unknown>;
      } catch (error) {
        throw refusal(error);
      }
    },
  };
}
