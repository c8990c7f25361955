import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";

/** A kind of flag, as Unleash names them, and how many days one is expected to live (null: for good). */
export interface FeatureType {
  id: string;
  name: string;
  description: string;
  lifetimeDays: number | null;
}

/** The one place where a feature type row becomes a feature type. */
export function featureTypeFromRow(row: Selectable<Database["feature_types"]>): FeatureType {
  return { id: row.id, name: row.name, description: row.description, lifetimeDays: row.lifetime_days };
}
