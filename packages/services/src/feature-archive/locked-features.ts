import type { Database } from "@vexil/db";
import { sql, type Transaction } from "kysely";
import { NotFoundError, ValidationError } from "../errors/domain-error.ts";
import { requireProject } from "../projects/require-project.ts";

export interface LockedFeature {
  name: string;
  project: string;
  archivedAt: Date | null;
}

/** `name = any($names)`: one parameter for any number of names, so a bulk call is one round trip. */
export const nameIn = (column: string, names: readonly string[]) => sql<boolean>`${sql.ref(column)} = any(${[...names]}::text[])`;

/**
 * The stored flags among `names` of a bulk command on a project, locked in name order (so two bulk
 * commands cannot deadlock): `update` to delete them, `noKeyUpdate` to change them. Names that are
 * not stored are left out, as Unleash ignores them; a flag of another project is a 400 naming it.
 */
export async function lockFeaturesOfProject(
  trx: Transaction<Database>,
  projectId: string,
  names: readonly string[],
  strength: "update" | "noKeyUpdate",
): Promise<LockedFeature[]> {
  await requireProject(trx, projectId);
  const query = trx.selectFrom("features").select(["name", "project_id", "archived_at"]).where(nameIn("name", names)).orderBy("name");
  const rows = await (strength === "update" ? query.forUpdate() : query.forNoKeyUpdate()).execute();
  const elsewhere = new Map(rows.filter((r) => r.project_id !== projectId).map((r) => [r.name, r.project_id]));
  if (elsewhere.size > 0) {
    const details = names.flatMap((name, i) =>
      elsewhere.has(name) ? [{ path: `features.${i}`, message: `"${name}" is in the project "${elsewhere.get(name)}"` }] : [],
    );
    throw new ValidationError(`Every feature must be in the project "${projectId}": ${details.map((d) => d.message).join(", ")}.`, details);
  }
  return rows.map((r) => ({ name: r.name, project: r.project_id, archivedAt: r.archived_at }));
}

/** One flag of a project by its path, locked to change it; a 404 saying which part is missing when it is not there. */
export async function lockFeatureOfProject(
  trx: Transaction<Database>,
  path: { projectId: string; featureName: string },
): Promise<LockedFeature> {
  const row = await trx
    .selectFrom("features")
    .select(["name", "project_id", "archived_at"])
    .where("name", "=", path.featureName)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!row || row.project_id !== path.projectId) {
    await requireProject(trx, path.projectId);
    throw featureNotInProject(path);
  }
  return { name: row.name, project: row.project_id, archivedAt: row.archived_at };
}

function featureNotInProject(path: { projectId: string; featureName: string }) {
  return new NotFoundError(`The feature "${path.featureName}" does not exist in the project "${path.projectId}".`);
}
