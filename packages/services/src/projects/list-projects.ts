import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { type Project, projectFromRow } from "./project.ts";

export async function listProjects(db: Kysely<Database>): Promise<Project[]> {
  const rows = await db.selectFrom("projects").selectAll().orderBy("name").orderBy("id").execute();
  return rows.map(projectFromRow);
}
