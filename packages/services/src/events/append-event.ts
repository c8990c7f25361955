import { type Database, preparedQuery } from "@vexil/db";
import { type Kysely, sql, type Transaction } from "kysely";
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
  // One event, the common case: a prepared statement, planned once per connection. Its plan (the
  // outbox's join) cost a banner write, whose lock spans it, about a fifth of its rate (tooling/bench/README.md).
  await appendOne.execute(trx, eventRow(by, event));
}

/** Events in one statement at most: eight parameters each, far under Postgres's 65,535 a statement. */
const EVENTS_PER_STATEMENT = 1000;

/**
 * Appends several events (a bulk write's one per flag) in the order given, by statements of up to
 * EVENTS_PER_STATEMENT. The same statements queue a delivery for every enabled integration that
 * listens to each event, so the outbox is written in the event's transaction on every write path
 * (docs/webhooks.md#the-outbox).
 */
export async function appendEvents(trx: Transaction<Database>, by: Principal | null, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (events.length === 1) return appendEvent(trx, by, events[0] as NewEvent);
  for (let start = 0; start < events.length; start += EVENTS_PER_STATEMENT) {
    await queueDeliveries(
      trx,
      events.slice(start, start + EVENTS_PER_STATEMENT).map((event) => eventRow(by, event)),
    ).execute();
  }
}

type EventRow = {
  type: string;
  created_by: string;
  created_by_user_id: number | null;
  project: string | null;
  environment: string | null;
  feature_name: string | null;
  data: string;
  pre_data: string | null;
};

function eventRow(by: Principal | null, event: NewEvent): EventRow {
  return {
    type: event.type,
    created_by: actorName(by),
    created_by_user_id: actorUserId(by),
    project: event.project ?? null,
    environment: event.environment ?? null,
    feature_name: event.featureName ?? null,
    data: JSON.stringify(event.data ?? null),
    pre_data: event.preData === undefined ? null : JSON.stringify(event.preData),
  };
}

/** The events' insert, and in the same statement a delivery for every enabled integration that listens to each. */
function queueDeliveries(db: Kysely<Database>, rows: EventRow | EventRow[]) {
  return db
    .with("appended", (db) => db.insertInto("events").values(rows).returning(["id", "type", "project", "environment"]))
    .insertInto("addon_deliveries")
    .columns(["addon_id", "event_id"])
    .expression((db) =>
      db
        .selectFrom("appended as e")
        .innerJoin("addons as a", (join) => join.on(listensTo))
        .select(["a.id as addon_id", "e.id as event_id"]),
    );
}

// The parameters stand for values by name (they list no keys), so the row names each column.
const appendOne = preparedQuery("vexil_append_event", (db, p: EventRow) =>
  queueDeliveries(db, {
    type: p.type,
    created_by: p.created_by,
    created_by_user_id: p.created_by_user_id,
    project: p.project,
    environment: p.environment,
    feature_name: p.feature_name,
    data: p.data,
    pre_data: p.pre_data,
  }),
);

// docs/webhooks.md#which-events: an empty list of projects or environments, or one with `*`, means all of them.
const listensTo = sql<boolean>`a.enabled
  and a.events ? e.type
  and (jsonb_array_length(a.projects) = 0 or a.projects ? '*' or e.project is null or a.projects ? e.project)
  and (jsonb_array_length(a.environments) = 0 or a.environments ? '*' or e.environment is null or a.environments ? e.environment)`;
