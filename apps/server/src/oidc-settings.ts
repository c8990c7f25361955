import type { OidcSettings } from "@vexil/services";
import type { Config } from "./config.ts";

/** A sign-in may take this long between leaving for the identity provider and coming back (docs/oidc.md#the-flow). */
const LOGIN_TTL_SECONDS = 600;

/** Single sign-on's settings from the configuration; null where it is not set up (loadConfig has checked it is all or nothing). */
export function oidcSettings(config: Config): OidcSettings | null {
  const { OIDC_ISSUER_URL: issuerUrl, OIDC_CLIENT_ID: clientId, OIDC_REDIRECT_URL: redirectUrl } = config;
  if (!issuerUrl || !clientId || !redirectUrl) return null;
  return {
    issuerUrl,
    clientId,
    clientSecret: config.OIDC_CLIENT_SECRET,
    redirectUrl,
    scopes: config.OIDC_SCOPES,
    providerName: config.OIDC_PROVIDER_NAME,
    roleClaim: config.OIDC_ROLE_CLAIM,
    roleMap: config.OIDC_ROLE_MAP,
    groupsClaim: config.OIDC_GROUPS_CLAIM,
    autoCreateRole: config.OIDC_AUTO_CREATE ? config.OIDC_AUTO_CREATE_ROLE : null,
    loginTtlSeconds: LOGIN_TTL_SECONDS,
  };
}
