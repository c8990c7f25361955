import { type Database, preparedStatement } from "@vexil/db";
import { CompiledQuery, type Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { projectNotFound } from "../projects/require-project.ts";
import { type ChangeRequestView, loadChangeRequests, PENDING_STATES } from "./change-request.ts";

// Dashboards poll this; written once as SQL and prepared per connection (see loadChangeRequests).
// $1 project, $2 user, $3 the pending states.
const PENDING_SQL = preparedStatement(
  "vexil_pending_change_requests",
  `select exists (select 1 from projects where id = $1) as "projectExists",
          array(select cr.id
                  from change_requests cr
                  join change_request_settings s on s.project_id = cr.project_id and s.environment_name = cr.environment_name
                 where cr.project_id = $1 and cr.created_by_user_id = $2 and cr.state = any($3::text[]) and s.enabled
                 order by cr.id) as ids`,
);

/**
 * The calling user's pending change requests in a project (contract 3.4): Draft, In review,
 * Approved or Scheduled, in environments whose change requests are enabled now, by id. An API
 * token is not a user and has none.
 */
export async function pendingChangeRequestsFor(db: Kysely<Database>, by: Principal, projectId: string): Promise<ChangeRequestView[]> {
  // A token has no requests of its own, but an unknown project is still a 404 for it.
  const userId = by.kind === "user" ? by.userId : 0;
  const { rows } = await db.executeQuery<{ projectExists: boolean; ids: number[] }>(CompiledQuery.raw(PENDING_SQL, [projectId, userId, PENDING_STATES]));
  const found = rows[0] as { projectExists: boolean; ids: number[] };
  if (!found.projectExists) throw projectNotFound(projectId);
  if (by.kind !== "user") return [];
  return loadChangeRequests(db, found.ids);
}
