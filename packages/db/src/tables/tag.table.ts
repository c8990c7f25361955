import type { ColumnType } from "kysely";

/** A kind of tag (Unleash seeds `simple`). */
export interface TagTypeTable {
  name: string;
  description: string | null;
  icon: string | null;
  /** `#RRGGBB`, shown on every tag of the type; null for none. */
  color: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** A tag: a value of a type. */
export interface TagTable {
  type: string;
  value: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** Which flags carry which tags. */
export interface FeatureTagTable {
  feature_name: string;
  tag_type: string;
  tag_value: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}
