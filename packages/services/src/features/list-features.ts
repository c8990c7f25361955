import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { requireProject } from "../projects/require-project.ts";
import { type Feature, featureFromRow } from "./feature.ts";

/** The features of one project, by name. */
export async function listFeatures(db: Kysely<Database>, projectId: string): Promise<Feature[]> {
  await requireProject(db, projectId);
  const rows = await db.selectFrom("features").selectAll().where("project_id", "=", projectId).orderBy("name").execute();
  return rows.map(featureFromRow);
}
