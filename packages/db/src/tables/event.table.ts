import type { ColumnType, Generated } from "kysely";

export interface EventTable {
  id: Generated<number>;
  type: string;
  created_by: string;
  created_by_user_id: number | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  project: string | null;
  environment: string | null;
  feature_name: string | null;
  /** JSON text on insert, parsed JSON on select. */
  data: ColumnType<unknown, string, string>;
  pre_data: ColumnType<unknown, string | null | undefined, string | null>;
}
