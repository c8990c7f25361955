import type { ColumnType } from "kysely";

/** A single sign-on under way (docs/oidc.md#the-flow): what the callback checks, used once. */
export interface OidcLoginTable {
  state_hash: string;
  nonce: string;
  code_verifier: string;
  /** A path of this origin, where the browser goes after signing in. */
  return_to: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
}
