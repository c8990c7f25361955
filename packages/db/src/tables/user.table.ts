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
}
