import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { assertFeatureType } from "../feature-types/assert-feature-type.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { type FeatureChanges, changeFeatureMetadata } from "./change-feature-metadata.ts";
import type { Feature } from "./feature.ts";
import { lockFeatureOfProject } from "./lock-feature-of-project.ts";

/** PUT a feature: `undefined` keeps a field, `null` clears the description. */
export async function updateFeature(
  db: Kysely<Database>,
  by: Principal | null,
  path: { projectId: string; featureName: string },
  changes: FeatureChanges,
): Promise<Feature> {
  return inTransaction(db, async (trx) => {
    // A rule of the body: checked before the path is looked up (docs/errors.md#check-order).
    if (changes.type !== undefined) await assertFeatureType(trx, changes.type);
    return changeFeatureMetadata(trx, by, await lockFeatureOfProject(trx, path), changes);
  });
}
