import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { type ChangeRequestView, loadChangeRequests, PENDING_STATES } from "./change-request.ts";

/**
 * The calling user's pending change requests in a project (contract 3.4): Draft, In review,
 * Approved or Scheduled, in environments whose change requests are enabled now, by id. An API
 * token is not a user and has none.
 */
export async function pendingChangeRequestsFor(db: Kysely<Database>, by: Principal, projectId: string): Promise<ChangeRequestView[]> {
  const project = await db.selectFrom("projects").select("id").where("id", "=", projectId).executeTakeFirst();
  if (!project) throw new NotFoundError(`There is no project "${projectId}".`);
  if (by.kind !== "user") return [];
  const rows = await db
    .selectFrom("change_requests as cr")
    .innerJoin("change_request_settings as s", (join) =>
      join.onRef("s.project_id", "=", "cr.project_id").onRef("s.environment_name", "=", "cr.environment_name"),
    )
    .select("cr.id")
    .where("cr.project_id", "=", projectId)
    .where("cr.created_by_user_id", "=", by.userId)
    .where("cr.state", "in", PENDING_STATES)
    .where("s.enabled", "=", true)
    .orderBy("cr.id")
    .execute();
  return loadChangeRequests(db, rows.map((r) => r.id));
}
