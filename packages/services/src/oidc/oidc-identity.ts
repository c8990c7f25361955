import type { RootRoleId } from "../auth/permissions.ts";
import { AuthenticationRequired } from "../errors/domain-error.ts";
import type { OidcSettings } from "./oidc-settings.ts";

/** Who the verified ID token says signed in, and the root role its role claim maps to. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  /** Only a verified e-mail links an existing Vexil account (docs/oidc.md#users). */
  emailVerified: boolean;
  name: string | null;
  preferredUsername: string | null;
  /** The strongest role the role claim's values map to; null when none does (or no claim is configured). */
  mappedRole: RootRoleId | null;
  /** The groups claim's values (docs/oidc.md#groups); null when no groups claim is configured, so memberships stay as they are. */
  groups: string[] | null;
}

/** The most groups one sign-in takes from the claim (docs/oidc.md#groups); further values are left out. */
const MAX_GROUPS = 100;

/** The groups claim's values: a list of names (or one name), trimmed, each once, as long as a group's name may be. */
function groupNames(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const names = values.map((v) => text(v, 200)).filter((v): v is string => v !== null);
  return [...new Set(names)].slice(0, MAX_GROUPS);
}

const text = (value: unknown, max: number): string | null =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;

/** The role claim's values: a string, a list of strings, or (as some providers send groups) a space-separated string. */
function claimValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  if (typeof value === "string") return [value, ...value.split(/\s+/).filter(Boolean)];
  return [];
}

export function oidcIdentity(claims: Record<string, unknown>, settings: OidcSettings): OidcIdentity {
  const issuer = text(claims.iss, 2000);
  const subject = text(claims.sub, 255);
  // openid-client has checked both; a token without them is no identity at all.
  if (!issuer || !subject) throw new AuthenticationRequired("The identity provider's ID token names no subject. Sign in again.");
  let mappedRole: RootRoleId | null = null;
  if (settings.roleClaim) {
    for (const value of claimValues(claims[settings.roleClaim])) {
      const role = settings.roleMap.get(value);
      // Root role ids order by strength: Admin 1, Editor 2, Viewer 3.
      if (role !== undefined && (mappedRole === null || role < mappedRole)) mappedRole = role;
    }
  }
  const email = text(claims.email, 320);
  return {
    issuer,
    subject,
    email: email && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null,
    emailVerified: claims.email_verified === true,
    name: text(claims.name, 200),
    preferredUsername: text(claims.preferred_username, 100),
    mappedRole,
    groups: settings.groupsClaim ? groupNames(claims[settings.groupsClaim]) : null,
  };
}
