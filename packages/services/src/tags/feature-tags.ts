import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import type { FeatureTag } from "./tag.ts";

export function featureNotFound(featureName: string): NotFoundError {
  return new NotFoundError(`The feature "${featureName}" does not exist.`);
}

/** The tags a flag carries, by type and value, each with its type's colour; archived flags keep theirs. */
export async function listFeatureTags(db: Kysely<Database>, featureName: string): Promise<FeatureTag[]> {
  const feature = await db.selectFrom("features").select("name").where("name", "=", featureName).executeTakeFirst();
  if (!feature) throw featureNotFound(featureName);
  return featureTagsOf(db, featureName);
}

export function featureTagsOf(db: Kysely<Database>, featureName: string): Promise<FeatureTag[]> {
  return db
    .selectFrom("feature_tags as ft")
    .innerJoin("tag_types as tt", "tt.name", "ft.tag_type")
    .select(["ft.tag_type as type", "ft.tag_value as value", "tt.color"])
    .where("ft.feature_name", "=", featureName)
    .orderBy("ft.tag_type")
    .orderBy("ft.tag_value")
    .execute();
}
