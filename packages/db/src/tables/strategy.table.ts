import type { ColumnType } from "kysely";

/** A custom strategy type, which SDKs implement themselves; the built-in ones are not stored. */
export interface StrategyTypeTable {
  name: string;
  description: string | null;
  /** `[{name, type, description, required}]`: JSON text on insert, parsed JSON on select. */
  parameters: ColumnType<unknown, string | undefined, string>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** One activation strategy of a feature in one environment. */
export interface FeatureStrategyTable {
  /** A UUID. */
  id: string;
  feature_name: string;
  environment_name: string;
  name: string;
  title: string | null;
  disabled: ColumnType<boolean, boolean | undefined, boolean>;
  sort_order: ColumnType<number, number | undefined, number>;
  /** JSON text on insert, parsed JSON on select, for the three below. */
  constraints: ColumnType<unknown, string | undefined, string>;
  parameters: ColumnType<unknown, string | undefined, string>;
  variants: ColumnType<unknown, string | undefined, string>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface FeatureStrategySegmentTable {
  strategy_id: string;
  segment_id: number;
}
