import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";

export interface Feature {
  name: string;
  project: string;
  description: string | null;
  /** One of the feature_types rows (docs/flag-lifecycle.md#stale-flags-and-feature-types). */
  type: string;
  /** Whether SDKs emit an impression event on each evaluation (as in Unleash). */
  impressionData: boolean;
  createdAt: Date;
  /** Marked stale by a user; SDKs are served it too. */
  stale: boolean;
  archived: boolean;
  archivedAt: Date | null;
  /** When an SDK last reported evaluating it, in any environment. */
  lastSeenAt: Date | null;
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
    stale: row.stale,
    archived: row.archived_at !== null,
    archivedAt: row.archived_at,
    lastSeenAt: row.last_seen_at,
  };
}
