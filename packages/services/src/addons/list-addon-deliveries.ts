import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { StoredEvent } from "../events/list-events.ts";
import { getAddon } from "./list-addons.ts";

/** One delivery of an event to an integration, as the console and `GET /api/admin/addons/:id/events` show it. */
export interface AddonDelivery {
  id: number;
  integrationId: number;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  createdAt: Date;
  nextAttemptAt: Date | null;
  finishedAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  event: StoredEvent;
}

/** An integration's deliveries, newest first; a NotFoundError when there is no such integration. */
export async function listAddonDeliveries(
  db: Kysely<Database>,
  addonId: number,
  page: { limit: number; offset: number },
): Promise<AddonDelivery[]> {
  await getAddon(db, addonId);
  const rows = await db
    .selectFrom("addon_deliveries as d")
    .innerJoin("events as e", "e.id", "d.event_id")
    .select([
      "d.id",
      "d.addon_id",
      "d.state",
      "d.attempts",
      "d.created_at",
      "d.next_attempt_at",
      "d.finished_at",
      "d.last_status",
      "d.last_error",
      "e.id as event_id",
      "e.type",
      "e.created_by",
      "e.created_at as event_created_at",
      "e.project",
      "e.environment",
      "e.feature_name",
      "e.data",
      "e.pre_data",
    ])
    .where("d.addon_id", "=", addonId)
    .orderBy("d.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    integrationId: row.addon_id,
    state: row.state as AddonDelivery["state"],
    attempts: row.attempts,
    createdAt: row.created_at,
    nextAttemptAt: row.state === "pending" ? row.next_attempt_at : null,
    finishedAt: row.finished_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
    event: {
      id: row.event_id,
      type: row.type,
      createdBy: row.created_by,
      createdAt: row.event_created_at,
      project: row.project,
      environment: row.environment,
      featureName: row.feature_name,
      data: row.data,
      preData: row.pre_data,
    },
  }));
}
