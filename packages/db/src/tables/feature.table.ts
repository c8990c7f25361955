import type { ColumnType } from "kysely";

export interface FeatureTable {
  /** Unique across all projects, as in Unleash. */
  name: string;
  project_id: string;
  description: string | null;
  type: ColumnType<string, string | undefined, string>;
  impression_data: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** Set while the flag is archived: kept, served to no SDK, its name not reusable. */
  archived_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Marked stale by a user. */
  stale: ColumnType<boolean, boolean | undefined, boolean>;
  /** Older than its type's lifetime, as housekeeping found it. */
  potentially_stale: ColumnType<boolean, boolean | undefined, boolean>;
  /** When an SDK last reported evaluating it, in any environment. */
  last_seen_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Its tags as `type:value`, sorted: written by trigger from feature_tags, read by search (docs/search.md#tag-keys). */
  tag_keys: ColumnType<string[], never, never>;
}

/** What a feature holds in one environment; a missing row means the defaults (off, no variants). */
export interface FeatureEnvironmentTable {
  feature_name: string;
  environment_name: string;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** The normalised variants sorted by name: JSON text on insert, parsed JSON on select. */
  variants: ColumnType<unknown, string | undefined, string>;
  /** When an SDK last reported evaluating it in this environment. */
  last_seen_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** A kind of flag and how long one is expected to live (null: permanent). */
export interface FeatureTypeTable {
  id: string;
  name: string;
  description: string;
  lifetime_days: number | null;
  /** Where it goes in lists: Unleash's order. */
  sort_order: ColumnType<number, number | undefined, number>;
}

/** A lifecycle stage a flag entered: initial, pre-live, live, completed or archived. */
export interface FeatureLifecycleTable {
  feature_name: string;
  stage: string;
  /** For `completed`: `kept` or `discarded`. */
  status: string | null;
  /** For `completed`: the variant kept, if any. */
  status_value: string | null;
  entered_at: ColumnType<Date, Date | undefined, Date>;
}
