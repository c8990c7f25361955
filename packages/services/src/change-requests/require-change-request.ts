import type { Database } from "@vexil/db";
import type { Kysely, Selectable } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { requireProject } from "../projects/require-project.ts";

export type ChangeRequestRow = Selectable<Database["change_requests"]>;

/**
 * The change request `id` of a project, or a NotFoundError that says whether the project or the
 * request is missing; `forUpdate` locks the row for a caller about to change its state.
 */
export async function requireChangeRequest(
  db: Kysely<Database>,
  projectId: string,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<ChangeRequestRow> {
  await requireProject(db, projectId);
  const row = await db
    .selectFrom("change_requests")
    .selectAll()
    .where("id", "=", id)
    .where("project_id", "=", projectId)
    .$if(options.forUpdate === true, (query) => query.forUpdate())
    .executeTakeFirst();
  if (!row) throw new NotFoundError(`There is no change request ${id} in the project "${projectId}".`);
  return row;
}
