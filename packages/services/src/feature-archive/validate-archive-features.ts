import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { requireProject } from "../projects/require-project.ts";
import { parentsWithChildren } from "./archive-rules.ts";

interface ArchiveImpact {
  /** Parents among the flags whose live children are not among them: archiving would be refused. */
  parentsWithChildFeatures: string[];
  /** Whether archiving deletes dependencies: never in Vexil, which keeps an archived flag's configuration. */
  hasDeletedDependencies: boolean;
}

/** POST /api/admin/projects/{projectId}/archive/validate: what archiving these flags would do, changing nothing. */
export async function validateArchiveFeatures(
  db: Kysely<Database>,
  projectId: string,
  featureNames: readonly string[],
): Promise<ArchiveImpact> {
  await requireProject(db, projectId);
  const orphans = await parentsWithChildren(db, featureNames, "live");
  return { parentsWithChildFeatures: [...new Set(orphans.map((o) => o.parent))], hasDeletedDependencies: false };
}
