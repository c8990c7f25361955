import { type Database, preparedQuery } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { projectNotFound } from "../projects/require-project.ts";
import { type ChangeRequestState, type ChangeRequestView, loadChangeRequests, PENDING_STATES } from "./change-request.ts";

// Dashboards poll this, so it runs as a prepared statement.
const pendingIds = preparedQuery(
  "vexil_pending_change_requests",
  (db, p: { projectId: string; userId: number; states: ChangeRequestState[] }) =>
    db.selectNoFrom((eb) => [
      eb.exists(eb.selectFrom("projects").select("projects.id").where("projects.id", "=", p.projectId)).as("projectExists"),
      eb
        .fn<number[]>("array", [
          eb
            .selectFrom("change_requests as cr")
            .innerJoin("change_request_settings as s", (join) =>
              join.onRef("s.project_id", "=", "cr.project_id").onRef("s.environment_name", "=", "cr.environment_name"),
            )
            .select("cr.id")
            .where("cr.project_id", "=", p.projectId)
            .where("cr.created_by_user_id", "=", p.userId)
            .where("cr.state", "=", eb.fn.any(eb.val(p.states)))
            .where("s.enabled", "=", true)
            .orderBy("cr.id"),
        ])
        .as("ids"),
    ]),
);

/**
 * The calling user's pending change requests in a project (docs/change-requests.md#pending-change-requests): Draft, In review,
 * Approved or Scheduled, in environments whose change requests are enabled now, by id. An API
 * token is not a user and has none.
 */
export async function pendingChangeRequestsFor(db: Kysely<Database>, by: Principal, projectId: string): Promise<ChangeRequestView[]> {
  // A token has no requests of its own, but an unknown project is still a 404 for it.
  const userId = by.kind === "user" ? by.userId : 0;
  const [found] = await pendingIds.execute(db, { projectId, userId, states: PENDING_STATES });
  if (!found) throw new Error("A select without from returns one row.");
  if (!found.projectExists) throw projectNotFound(projectId);
  if (by.kind !== "user") return [];
  return loadChangeRequests(db, found.ids, by);
}
