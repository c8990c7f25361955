import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { reassessPotentiallyStale } from "../feature-staleness/reassess-potentially-stale.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { type FeatureType, featureTypeFromRow } from "./feature-type.ts";

/**
 * Sets how many days a flag of a type is expected to live; 0 or null means for good (Unleash
 * stores 0 as null). The id is matched lower-cased, as in Unleash. Appends `feature-type-updated`
 * with the type before and after, and reassesses the type's flags at once (Unleash leaves that to
 * its next housekeeping pass): a lower lifetime makes flags potentially stale, a higher one lifts
 * the mark.
 */
export async function updateFeatureTypeLifetime(
  db: Kysely<Database>,
  by: Principal | null,
  id: string,
  lifetimeDays: number | null,
): Promise<FeatureType> {
  return inTransaction(db, async (trx) => {
    const typeId = id.toLowerCase();
    const row = await trx.selectFrom("feature_types").selectAll().where("id", "=", typeId).forNoKeyUpdate().executeTakeFirst();
    if (!row) throw new NotFoundError(`The feature type you tried to update ("${id}") does not exist.`);
    const before = featureTypeFromRow(row);
    const updated = await trx
      .updateTable("feature_types")
      .set({ lifetime_days: lifetimeDays === 0 ? null : lifetimeDays })
      .where("id", "=", typeId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = featureTypeFromRow(updated);
    await appendEvent(trx, by, { type: "feature-type-updated", data: after, preData: before });
    await reassessPotentiallyStale(trx, { type: typeId });
    return after;
  });
}
