import type { Database } from "@vexil/db";
import type { Selectable, Transaction } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { archivedFeatureError } from "../feature-archive/lock-live-feature.ts";

/** A feature's row, locked until the transaction ends, to change it: NotFoundError when it is not in the path's project, refused while archived. */
export async function lockFeatureOfProject(
  trx: Transaction<Database>,
  path: { projectId: string; featureName: string },
): Promise<Selectable<Database["features"]>> {
  const row = await trx.selectFrom("features").selectAll().where("name", "=", path.featureName).forNoKeyUpdate().executeTakeFirst();
  if (!row || row.project_id !== path.projectId) {
    throw new NotFoundError(`The feature "${path.featureName}" does not exist in the project "${path.projectId}".`);
  }
  if (row.archived_at) throw archivedFeatureError(path.featureName);
  return row;
}
