import type { RootRoleId } from "../auth/permissions.ts";

/** How Vexil signs people in with an OpenID provider (docs/oidc.md#settings); the server reads them from its environment. */
export interface OidcSettings {
  /** The issuer identifier; its `/.well-known/openid-configuration` describes the provider. */
  issuerUrl: string;
  clientId: string;
  /** Absent for a public client (PKCE alone); sent with HTTP Basic authentication otherwise. */
  clientSecret: string | undefined;
  /** `<public URL>/auth/oidc/callback`, exactly as registered at the provider. */
  redirectUrl: string;
  /** Space-separated; `openid` is always among them. */
  scopes: string;
  /** What the login page's button says: "Sign in with <providerName>". */
  providerName: string;
  /** The ID token claim whose value (a string or a list of them) maps to a root role. */
  roleClaim: string | undefined;
  /** Claim value -> root role; where several match, the strongest role wins. */
  roleMap: ReadonlyMap<string, RootRoleId>;
  /** The ID token claim listing the person's groups: their memberships of the groups single sign-on manages follow it (docs/oidc.md#groups). */
  groupsClaim: string | undefined;
  /** A user Vexil does not know yet: created at first sign-in, with this role when the claim maps to none; null refuses them. */
  autoCreateRole: RootRoleId | null;
  /** How long a sign-in may take between leaving for the provider and coming back. */
  loginTtlSeconds: number;
}
