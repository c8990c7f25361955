import type { ColumnType, Generated } from "kysely";

export interface UserTable {
  id: Generated<number>;
  username: string | null;
  email: string | null;
  name: string | null;
  password_hash: string | null;
  root_role: number;
  /** Consecutive failed logins; back to 0 after a success. */
  login_attempts: Generated<number>;
  seen_at: Date | null;
  email_sent: Generated<boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** The identity provider that signs this user in (docs/oidc.md#users), and who the user is there. */
  oidc_issuer: string | null;
  oidc_subject: string | null;
  /** False for a user the identity provider deactivated: no sessions, no tokens, no sign-in (docs/scim.md). */
  active: ColumnType<boolean, boolean | undefined, boolean>;
  /** The SCIM id Vexil gave a user it provisioned; null for a user made by hand. */
  scim_id: string | null;
  /** The identity provider's own id of that user (SCIM's externalId). */
  scim_external_id: string | null;
}
