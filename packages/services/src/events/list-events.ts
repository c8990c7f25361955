import type { Database } from "@vexil/db";
import type { Kysely, Selectable } from "kysely";

export interface StoredEvent {
  id: number;
  type: string;
  createdBy: string;
  createdAt: Date;
  project: string | null;
  environment: string | null;
  featureName: string | null;
  data: unknown;
  preData: unknown;
}

export interface EventPage {
  /** How many events to return, newest first. */
  limit: number;
  /** Only events older than this id, to read the next page after the last id seen. */
  before?: number | undefined;
}

/** The one place where an event row becomes an event. */
function eventFromRow(row: Selectable<Database["events"]>): StoredEvent {
  return {
    id: row.id,
    type: row.type,
    createdBy: row.created_by,
    createdAt: row.created_at,
    project: row.project,
    environment: row.environment,
    featureName: row.feature_name,
    data: row.data,
    preData: row.pre_data,
  };
}

/** The event log, newest first, one page at a time (the id order is the order of writing). */
export async function listEvents(db: Kysely<Database>, page: EventPage): Promise<StoredEvent[]> {
  let query = db.selectFrom("events").selectAll().orderBy("id", "desc").limit(page.limit);
  if (page.before !== undefined) query = query.where("id", "<", page.before);
  return (await query.execute()).map(eventFromRow);
}
