import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NotFoundError, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { FEATURE_TYPES, type Feature, featureFromRow } from "./feature.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

export interface FeatureChanges {
  description?: string | null | undefined;
  type?: string | undefined;
  impressionData?: boolean | undefined;
}

/** PUT a feature: `undefined` keeps a field, `null` clears the description. */
export async function updateFeature(
  db: Kysely<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
  changes: FeatureChanges,
): Promise<Feature> {
  return inTransaction(db, async (trx) => {
    if (changes.type !== undefined && !(FEATURE_TYPES as readonly string[]).includes(changes.type)) {
      const message = `must be one of ${FEATURE_TYPES.join(", ")}`;
      throw new ValidationError(`"type" ${message}.`, [{ path: "type", message }]);
    }
    const row = await trx.selectFrom("features").selectAll().where("name", "=", path.featureName).forNoKeyUpdate().executeTakeFirst();
    if (!row || row.project_id !== path.projectId) {
      throw new NotFoundError(`The feature "${path.featureName}" does not exist in the project "${path.projectId}".`);
    }
    const before = featureFromRow(row);
    const updated = await trx
      .updateTable("features")
      .set({
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.type !== undefined ? { type: changes.type } : {}),
        impression_data: changes.impressionData ?? row.impression_data,
      })
      .where("name", "=", path.featureName)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = featureFromRow(updated);
    await appendEvent(trx, by, { type: "feature-updated", project: path.projectId, featureName: after.name, data: after, preData: before });
    return after;
  });
}
