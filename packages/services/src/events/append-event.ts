import type { Database } from "@vexil/db";
import { sql, type Transaction } from "kysely";
import { type Principal, actorName, actorUserId } from "../auth/principal.ts";

export interface NewEvent {
  type: string;
  project?: string | null;
  environment?: string | null;
  featureName?: string | null;
  data: unknown;
  preData?: unknown;
}

/**
 * Appends to the event log. Call it with the transaction of the write it records, so that the
 * write and its event are stored together or not at all.
 */
export async function appendEvent(trx: Transaction<Database>, by: Principal | null, event: NewEvent): Promise<void> {
  await appendEvents(trx, by, [event]);
}

/**
 * Appends several events in one statement (a bulk write's one per flag), in the order given. The
 * same statement queues a delivery for every enabled integration that listens to each event, so
 * the outbox is written in the event's transaction on every write path (docs/webhooks.md#the-outbox).
 */
export async function appendEvents(trx: Transaction<Database>, by: Principal | null, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await trx
    .with("appended", (db) =>
      db
        .insertInto("events")
        .values(
          events.map((event) => ({
            type: event.type,
            created_by: actorName(by),
            created_by_user_id: actorUserId(by),
            project: event.project ?? null,
            environment: event.environment ?? null,
            feature_name: event.featureName ?? null,
            data: JSON.stringify(event.data ?? null),
            pre_data: event.preData === undefined ? null : JSON.stringify(event.preData),
          })),
        )
        .returning(["id", "type", "project", "environment"]),
    )
    .insertInto("addon_deliveries")
    .columns(["addon_id", "event_id"])
    .expression((db) =>
      db
        .selectFrom("appended as e")
        .innerJoin("addons as a", (join) => join.on(listensTo))
        .select(["a.id as addon_id", "e.id as event_id"]),
    )
    .execute();
}

// docs/webhooks.md#which-events: an empty list of projects or environments means all of them.
const listensTo = sql<boolean>`a.enabled
  and a.events ? e.type
  and (jsonb_array_length(a.projects) = 0 or e.project is null or a.projects ? e.project)
  and (jsonb_array_length(a.environments) = 0 or e.environment is null or a.environments ? e.environment)`;
