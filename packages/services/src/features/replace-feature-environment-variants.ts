import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { directEnvironmentWrite } from "../change-requests/direct-write.ts";
import type { FeatureEnvironmentPath } from "./locate-feature-environment.ts";
import { parseVariants } from "./parse-variants.ts";
import { updateFeatureEnvironmentVariants } from "./update-feature-environment-variants.ts";
import type { Variant } from "./variant.ts";

/** PUT: replaces the variants of one environment, directly (the four-eyes rule applies); returns them as stored. */
export async function replaceFeatureEnvironmentVariants(
  db: Kysely<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  variants: unknown,
): Promise<Variant[]> {
  return directEnvironmentWrite(db, by, path, (trx) => storeFeatureEnvironmentVariants(trx, by, path, variants));
}

/** Validates and stores the whole variants array of one environment; a direct write and an applied change both end here. */
export async function storeFeatureEnvironmentVariants(
  trx: Transaction<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  variants: unknown,
): Promise<Variant[]> {
  // Validated before the path is looked up: the schema (400) comes before existence (404) (docs/errors.md#check-order).
  const after = parseVariants(variants);
  return updateFeatureEnvironmentVariants(trx, by, path, () => after);
}
