import type { Database } from "@vexil/db";
import type { Transaction } from "kysely";
import { ValidationError } from "../errors/domain-error.ts";

/** The one answer to a write on an archived flag (Unleash's message, docs/flag-lifecycle.md#archive-revive-delete). */
export function archivedFeatureError(featureName: string): ValidationError {
  const message = `Cannot perform this operation on archived features: "${featureName}" is archived; revive it first`;
  return new ValidationError(`${message}.`, [{ path: "featureName", message }]);
}

/**
 * Locks a flag's row for a write to it and refuses the write when the flag is archived. The
 * locking read sees the latest committed row, so a write and an archive of the same flag queue
 * and the second one sees what the first did. `share` lets several readers that only need the
 * flag to stay live (proposing a change) run side by side.
 */
export async function lockLiveFeature(trx: Transaction<Database>, featureName: string, mode: "write" | "share" = "write"): Promise<void> {
  const query = trx.selectFrom("features").select("archived_at").where("name", "=", featureName);
  const row = await (mode === "write" ? query.forNoKeyUpdate() : query.forShare()).executeTakeFirst();
  if (row?.archived_at) throw archivedFeatureError(featureName);
}

/**
 * lockLiveFeature for several flags at once, in name order, so that two writers of several flags
 * cannot deadlock; refused when one of them is archived.
 */
export async function lockLiveFeatures(trx: Transaction<Database>, featureNames: readonly string[]): Promise<void> {
  if (featureNames.length === 0) return;
  const rows = await trx
    .selectFrom("features")
    .select(["name", "archived_at"])
    .where("name", "in", [...featureNames])
    .orderBy("name")
    .forNoKeyUpdate()
    .execute();
  const archived = rows.find((row) => row.archived_at !== null);
  if (archived) throw archivedFeatureError(archived.name);
}
