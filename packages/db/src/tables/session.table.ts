import type { ColumnType, Generated } from "kysely";

export interface SessionTable {
  id: string;
  /** Orders a user's sessions when several start in the same instant. */
  seq: Generated<number>;
  user_id: number;
  created_at: ColumnType<Date, Date | undefined, never>;
  last_seen_at: Date;
  expires_at: Date;
  user_agent: string | null;
  ip: string | null;
  /** Started with the default admin password: good for changing it and nothing else (docs/auth.md#passwords). */
  password_change_required: Generated<boolean>;
}
