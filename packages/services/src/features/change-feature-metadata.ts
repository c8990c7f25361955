import type { Database } from "@vexil/db";
import type { Selectable, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { appendEvent } from "../events/append-event.ts";
import { assertFeatureType } from "../feature-types/assert-feature-type.ts";
import { type Feature, featureFromRow } from "./feature.ts";

/** What PUT and PATCH may change on a feature: `undefined` keeps a field, `null` clears the description. */
export interface FeatureChanges {
  description?: string | null | undefined;
  type?: string | undefined;
  impressionData?: boolean | undefined;
  stale?: boolean | undefined;
}

/**
 * The step PUT and PATCH share, on a row the caller has locked: checks a new type, stores what
 * differs, and appends Unleash's events, `feature-metadata-updated` with the feature before and
 * after, then `feature-stale-on` or `-off` when `stale` changed. A change to nothing is no write
 * and no event. A stale flag's `potentiallyStale` is left as it is, as in Unleash: housekeeping
 * looks at it again once the flag is no longer stale.
 */
export async function changeFeatureMetadata(
  trx: Transaction<Database>,
  by: Principal | null,
  row: Selectable<Database["features"]>,
  changes: FeatureChanges,
): Promise<Feature> {
  const before = featureFromRow(row);
  if (changes.type !== undefined && changes.type !== before.type) await assertFeatureType(trx, changes.type);
  const set = {
    ...(changes.description !== undefined && changes.description !== before.description ? { description: changes.description } : {}),
    ...(changes.type !== undefined && changes.type !== before.type ? { type: changes.type } : {}),
    ...(changes.impressionData !== undefined && changes.impressionData !== before.impressionData
      ? { impression_data: changes.impressionData }
      : {}),
    ...(changes.stale !== undefined && changes.stale !== before.stale ? { stale: changes.stale } : {}),
  };
  if (Object.keys(set).length === 0) return before;
  const updated = await trx.updateTable("features").set(set).where("name", "=", row.name).returningAll().executeTakeFirstOrThrow();
  const after = featureFromRow(updated);
  const where = { project: after.project, featureName: after.name };
  await appendEvent(trx, by, { type: "feature-metadata-updated", ...where, data: after, preData: before });
  if (after.stale !== before.stale)
    await appendEvent(trx, by, { type: after.stale ? "feature-stale-on" : "feature-stale-off", ...where, data: null });
  return after;
}
