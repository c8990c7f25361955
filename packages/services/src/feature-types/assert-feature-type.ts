import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { ValidationError } from "../errors/domain-error.ts";

/**
 * The narrow question features ask about a type: is it one of the feature_types rows? A 400
 * naming `field` and the known types when it is not (types only change how a flag is presented,
 * but an unknown one would have no lifetime and never become potentially stale).
 */
export async function assertFeatureType(db: Kysely<Database>, type: string, field = "type"): Promise<void> {
  const rows = await db.selectFrom("feature_types").select("id").orderBy("sort_order").orderBy("id").execute();
  const known = rows.map((r) => r.id);
  if (known.includes(type)) return;
  const message = `must be one of ${known.join(", ")}`;
  throw new ValidationError(`"${field}" ${message}.`, [{ path: field, message }]);
}
