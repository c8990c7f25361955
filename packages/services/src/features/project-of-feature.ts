import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";

/**
 * The project a flag (live or archived) belongs to, or null when there is none of that name: what
 * the access check asks of a route that names a flag but not its project (docs/project-roles.md#which-routes).
 */
export async function projectOfFeature(db: Kysely<Database>, featureName: string): Promise<string | null> {
  const row = await db.selectFrom("features").select("project_id").where("name", "=", featureName).executeTakeFirst();
  return row?.project_id ?? null;
}
