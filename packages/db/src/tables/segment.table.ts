import type { ColumnType, Generated } from "kysely";

export interface SegmentTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  /** The project it may be used in; null for every project. */
  project_id: string | null;
  /** JSON text on insert, parsed JSON on select. */
  constraints: ColumnType<unknown, string | undefined, string>;
  created_at: ColumnType<Date, Date | undefined, never>;
}
