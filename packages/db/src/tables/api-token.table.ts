import type { ColumnType, Generated } from "kysely";

export interface ApiTokenTable {
  id: Generated<number>;
  /** `admin`, `client`, `frontend`, `personal` or `scim`. */
  type: string;
  token_name: string;
  /** SHA-256 of the whole token; the token itself is shown once and never stored. */
  secret_hash: string;
  projects: ColumnType<string[], string, string>;
  environment: string;
  /** The owner of a personal token. */
  user_id: number | null;
  expires_at: Date | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}
