import { createHash } from "node:crypto";
import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";
import type { RootRoleId } from "../auth/permissions.ts";

/** A user as the API shows it (docs/auth.md#users); never the password hash. */
export interface User {
  id: number;
  name: string | null;
  email: string | null;
  username: string | null;
  imageUrl: string;
  loginAttempts: number;
  seenAt: Date | null;
  createdAt: Date;
  rootRole: RootRoleId;
  emailSent: boolean;
  accountType: "User";
  isAPI: false;
  permissions: string[];
  /** "oidc": signs in with the identity provider, which created or linked the user (docs/oidc.md#users); "local": Vexil's own account. */
  authProvider: "oidc" | "local";
  /** Who the user is at the identity provider (the ID token's `sub`); null for a local account. */
  oidcSubject: string | null;
  /** The SCIM id, present only on a user an identity provider provisioned (docs/scim.md). */
  scimId?: string;
}

export type UserRow = Selectable<Database["users"]>;

// Unleash shows a Gravatar; the URL is derived, so nothing about it needs storing.
/** The avatar address Unleash gives a user, from the e-mail or else the username or id. */
export function imageUrlFor(row: Pick<UserRow, "id" | "email" | "username">): string {
  const key = (row.email ?? row.username ?? String(row.id)).trim().toLowerCase();
  return `https://gravatar.com/avatar/${createHash("md5").update(key).digest("hex")}?s=42&d=retro&r=g`;
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    username: row.username,
    imageUrl: imageUrlFor(row),
    loginAttempts: row.login_attempts,
    seenAt: row.seen_at,
    createdAt: row.created_at,
    rootRole: row.root_role as RootRoleId,
    emailSent: row.email_sent,
    accountType: "User",
    isAPI: false,
    permissions: [],
    authProvider: row.oidc_subject === null ? "local" : "oidc",
    oidcSubject: row.oidc_subject,
    ...(row.scim_id === null ? {} : { scimId: row.scim_id }),
  };
}

/** What events record of a user: enough to know who, nothing secret. */
export function userEventData(user: User) {
  return { id: user.id, username: user.username, email: user.email, name: user.name, rootRole: user.rootRole };
}
