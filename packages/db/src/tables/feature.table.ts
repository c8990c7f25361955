import type { ColumnType } from "kysely";

export interface FeatureTable {
  /** Unique across all projects, as in Unleash. */
  name: string;
  project_id: string;
  description: string | null;
  type: ColumnType<string, string | undefined, string>;
  impression_data: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** What a feature holds in one environment; a missing row means the defaults (off, no variants). */
export interface FeatureEnvironmentTable {
  feature_name: string;
  environment_name: string;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** The normalised variants sorted by name: JSON text on insert, parsed JSON on select. */
  variants: ColumnType<unknown, string | undefined, string>;
}
