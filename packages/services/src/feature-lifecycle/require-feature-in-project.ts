import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { requireProject } from "../projects/require-project.ts";

/** The feature of a path, archived or not; a 404 naming the project or the feature when either is missing. */
export async function requireFeatureInProject(
  db: Kysely<Database>,
  path: { projectId: string; featureName: string },
): Promise<{ archivedAt: Date | null }> {
  const row = await db.selectFrom("features").select(["project_id", "archived_at"]).where("name", "=", path.featureName).executeTakeFirst();
  if (!row || row.project_id !== path.projectId) {
    await requireProject(db, path.projectId);
    throw new NotFoundError(`The feature "${path.featureName}" does not exist in the project "${path.projectId}".`);
  }
  return { archivedAt: row.archived_at };
}
