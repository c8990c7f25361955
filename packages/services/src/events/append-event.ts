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
  await trx
    .insertInto("events")
    .values({
      type: event.type,
      created_by: actorName(by),
      created_by_user_id: actorUserId(by),
      project: event.project ?? null,
      environment: event.environment ?? null,
      feature_name: event.featureName ?? null,
      data: JSON.stringify(event.data ?? null),
      pre_data: event.preData === undefined ? null : JSON.stringify(event.preData),
    })
    .execute();
}
