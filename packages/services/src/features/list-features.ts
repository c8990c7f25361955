import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { requireProject } from "../projects/require-project.ts";
import { type Feature, featureFromRow } from "./feature.ts";
import { type FeatureEnvironmentSummary, featureEnvironmentSummaries } from "./feature-environment-summaries.ts";

/** A feature as a project's list shows it: with a summary of each of the project's environments. */
export interface FeatureListItem extends Feature {
  environments: FeatureEnvironmentSummary[];
}

/** The features of one project that are not archived, by name. */
export async function listFeatures(db: Kysely<Database>, projectId: string): Promise<FeatureListItem[]> {
  await requireProject(db, projectId);
  return projectFeatureItems(db, projectId, "all");
}

/** A project's flags that are not archived, by name, each with its summary in the environments asked for (the project must exist). */
export async function projectFeatureItems(
  db: Kysely<Database>,
  projectId: string,
  environments: Parameters<typeof featureEnvironmentSummaries>[2],
): Promise<FeatureListItem[]> {
  const rows = await db
    .selectFrom("features")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("archived_at", "is", null)
    .orderBy("name")
    .execute();
  const summaries = await featureEnvironmentSummaries(db, projectId, environments);
  return rows.map((row) => ({ ...featureFromRow(row), environments: summaries.get(row.name) ?? [] }));
}
