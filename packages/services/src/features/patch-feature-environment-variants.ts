import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { directEnvironmentWrite } from "../change-requests/direct-write.ts";
import { applyJsonPatch, type JsonPatchOperation } from "./apply-json-patch.ts";
import type { FeatureEnvironmentPath } from "./locate-feature-environment.ts";
import { parseVariants } from "./parse-variants.ts";
import { updateFeatureEnvironmentVariants } from "./update-feature-environment-variants.ts";
import type { Variant } from "./variant.ts";

/**
 * PATCH: applies an RFC 6902 patch to the stored variants (sorted by name, as a GET shows them),
 * then validates and normalises the result exactly as a PUT would; a direct write, so the
 * four-eyes rule applies.
 */
export async function patchFeatureEnvironmentVariants(
  db: Kysely<Database>,
  by: Principal | null,
  path: FeatureEnvironmentPath,
  patch: JsonPatchOperation[],
): Promise<Variant[]> {
  return directEnvironmentWrite(db, by, path, (trx) =>
    updateFeatureEnvironmentVariants(trx, by, path, (before) =>
      parseVariants(applyJsonPatch(before, patch), { what: "The variants after the patch" }),
    ),
  );
}
