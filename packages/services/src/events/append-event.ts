import type { Database } from "@vexil/db";
import type { Transaction } from "kysely";
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

/** Appends several events in one statement (a bulk write's one per flag), in the order given. */
export async function appendEvents(trx: Transaction<Database>, by: Principal | null, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await trx
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
    .execute();
}
