import type { ColumnType } from "kysely";

/** A context field that constraints may name, with the values it may take (docs/context-fields.md). */
export interface ContextFieldTable {
  name: string;
  description: string | null;
  stickiness: ColumnType<boolean, boolean | undefined, boolean>;
  sort_order: ColumnType<number, number | undefined, number>;
  /** `[{value, description?}]`: JSON text on insert, parsed JSON on select. */
  legal_values: ColumnType<unknown, string | undefined, string>;
  created_at: ColumnType<Date, Date | undefined, never>;
}
