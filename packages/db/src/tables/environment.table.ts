import type { ColumnType, Generated } from "kysely";

export interface EnvironmentTable {
  name: string;
  type: string;
  sort_order: Generated<number>;
  created_at: ColumnType<Date, Date | undefined, never>;
}
