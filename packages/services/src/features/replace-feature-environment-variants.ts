import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import type { FeatureEnvironmentPath } from "./locate-feature-environment.ts";
import { parseVariants } from "./parse-variants.ts";
import { updateFeatureEnvironmentVariants } from "./update-feature-environment-variants.ts";
import type { Variant } from "./variant.ts";

/** PUT: replaces the variants of one environment; returns them as stored. */
export async function replaceFeatureEnvironmentVariants(
  trx: Kysely<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  variants: unknown,
): Promise<Variant[]> {
  // Validated before the path is looked up: the schema (400) comes before existence (404) (docs/errors.md#check-order).
  const after = parseVariants(variants);
  return updateFeatureEnvironmentVariants(trx, by, path, () => after);
}
