import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { parseInput } from "../errors/parse-input.ts";
import { clientRegistrationSchema } from "./client-metrics-input.ts";

/** Records an SDK instance as it registers; it registers again when it restarts. */
export async function registerClient(db: Kysely<Database>, environment: string, input: unknown): Promise<void> {
  const registration = parseInput(clientRegistrationSchema, input, "", "The registration");
  const values = {
    app_name: registration.appName,
    instance_id: registration.instanceId,
    sdk_version: registration.sdkVersion ?? null,
    environment,
    strategies: JSON.stringify(registration.strategies),
    started: registration.started,
    interval: registration.interval,
  };
  await db
    .insertInto("client_instances")
    .values(values)
    .onConflict((oc) => oc.columns(["app_name", "instance_id"]).doUpdateSet({ ...values, last_seen: sql<Date>`now()` }))
    .execute();
}
