import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";

/** The narrow question other concepts ask about a project: does it exist? Throws when it does not. */
export async function requireProject(db: Kysely<Database>, projectId: string): Promise<void> {
  const row = await db.selectFrom("projects").select("id").where("id", "=", projectId).executeTakeFirst();
  if (!row) throw projectNotFound(projectId);
}

/** The one answer for a missing project, for queries that learn it along with something else. */
export function projectNotFound(projectId: string): NotFoundError {
  return new NotFoundError(`The project "${projectId}" does not exist.`);
}
