import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { type FeatureEnvironmentPath, locateFeatureEnvironment } from "./locate-feature-environment.ts";
import { type Variant, variantsFromJson } from "./variant.ts";

/** The variants of a feature in one environment of its project, sorted by name; [] when none. */
export async function featureEnvironmentVariants(db: Kysely<Database>, path: FeatureEnvironmentPath): Promise<Variant[]> {
  const { variants } = await locateFeatureEnvironment(db, path);
  return variantsFromJson(variants);
}
