import type { Database } from "@vexil/db";
import { type Kysely, sql, type Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NoAccessError, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { lockLiveFeature } from "../feature-archive/lock-live-feature.ts";
import { locateFeatureEnvironment } from "../features/locate-feature-environment.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import type { ChangeRequestState, ChangeRequestView } from "./change-request.ts";
import { type ChangeAction, validateChangePayload } from "./change-payload.ts";
import { enabledChangeRequestSettings } from "./change-request-settings.ts";
import { changeRequestView } from "./get-change-request.ts";

export { CHANGE_ACTIONS, type ChangeAction } from "./change-payload.ts";

/** A user has at most one open request per project and environment; a change joins it. */
const OPEN_STATES: ChangeRequestState[] = ["Draft", "In review", "Approved"];

export interface NewChange {
  projectId: string;
  environment: string;
  feature: string;
  action: ChangeAction;
  payload: unknown;
}

/**
 * Adds a change to the caller's open request for that environment (a new Draft when there is
 * none) and returns that request; a request in review or approved goes back to review without
 * its approvals, so that nobody's approval covers a change they did not see.
 */
export async function addChange(db: Kysely<Database>, by: Principal, change: NewChange): Promise<ChangeRequestView> {
  const id = await inTransaction(db, (trx) => storeChange(trx, by, change));
  return changeRequestView(db, id, by);
}

async function storeChange(trx: Transaction<Database>, by: Principal, change: NewChange): Promise<number> {
  if (by.kind !== "user") throw new NoAccessError("Change requests are proposed by users; log in or use a personal access token.");
  const payload = await validateChangePayload(trx, change.projectId, change.action, change.payload);
  await locateFeatureEnvironment(trx, { projectId: change.projectId, featureName: change.feature, environment: change.environment });
  // Share-locked, so that archiving the flag waits for this change and then sees it (docs/flag-lifecycle.md#archive-revive-delete).
  await lockLiveFeature(trx, change.feature, "share");
  const settings = await enabledChangeRequestSettings(trx, change.projectId, change.environment);
  if (!settings) {
    throw new ValidationError(
      `Change requests are not enabled for the "${change.environment}" environment of the project "${change.projectId}".`,
    );
  }

  // Two requests from one user racing would both find nothing open; the lock makes them queue.
  await sql`select pg_advisory_xact_lock(hashtext(${`cr:${change.projectId}:${change.environment}:${by.userId}`}))`.execute(trx);
  let request = await trx
    .selectFrom("change_requests")
    .select(["id", "state"])
    .where("project_id", "=", change.projectId)
    .where("environment_name", "=", change.environment)
    .where("created_by_user_id", "=", by.userId)
    .where("state", "in", OPEN_STATES)
    .forUpdate()
    .executeTakeFirst();
  if (!request) {
    request = await trx
      .insertInto("change_requests")
      .values({
        project_id: change.projectId,
        environment_name: change.environment,
        title: null,
        state: "Draft",
        created_by_user_id: by.userId,
        min_approvals: settings.requiredApprovals,
        updated_at: sql<Date>`now()`,
      })
      .returning(["id", "state"])
      .executeTakeFirstOrThrow();
    await appendEvent(trx, by, {
      type: "change-request-created",
      project: change.projectId,
      environment: change.environment,
      data: { id: request.id },
    });
  } else if (request.state !== "Draft") {
    await trx.deleteFrom("change_request_reviews").where("change_request_id", "=", request.id).where("kind", "=", "approval").execute();
    await trx
      .updateTable("change_requests")
      .set({ state: "In review", updated_at: sql<Date>`now()` })
      .where("id", "=", request.id)
      .execute();
  }
  const inserted = await trx
    .insertInto("change_request_changes")
    .values({
      change_request_id: request.id,
      feature_name: change.feature,
      action: change.action,
      payload: JSON.stringify(payload),
      created_by_user_id: by.userId,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await appendEvent(trx, by, {
    type: "change-request-change-added",
    project: change.projectId,
    environment: change.environment,
    featureName: change.feature,
    data: { changeRequestId: request.id, changeId: inserted.id, action: change.action, payload, previousState: request.state },
  });
  return request.id;
}
