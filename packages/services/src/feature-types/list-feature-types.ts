import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { type FeatureType, featureTypeFromRow } from "./feature-type.ts";

/** Every feature type, in Unleash's order. */
export async function listFeatureTypes(db: Kysely<Database>): Promise<FeatureType[]> {
  const rows = await db.selectFrom("feature_types").selectAll().orderBy("sort_order").orderBy("id").execute();
  return rows.map(featureTypeFromRow);
}
