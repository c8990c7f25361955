import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";

/** Feature types as Unleash names them; they only change how a user interface presents a feature. */
export const FEATURE_TYPES = ["release", "experiment", "operational", "kill-switch", "permission"] as const;
export type FeatureType = (typeof FEATURE_TYPES)[number];

export interface Feature {
  name: string;
  project: string;
  description: string | null;
  type: string;
  /** Whether SDKs emit an impression event on each evaluation (as in Unleash). */
  impressionData: boolean;
  createdAt: Date;
}

/** The one place where a feature row becomes a feature. */
export function featureFromRow(row: Selectable<Database["features"]>): Feature {
  return {
    name: row.name,
    project: row.project_id,
    description: row.description,
    type: row.type,
    impressionData: row.impression_data,
    createdAt: row.created_at,
  };
}
