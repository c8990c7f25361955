import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { NameExistsError } from "../errors/domain-error.ts";
import { assertUrlSafeName } from "./url-safe-name.ts";

/** Unleash's validateFeatureSchema; `projectId` is accepted for its clients and changes nothing, Vexil having no naming patterns. */
export const validateFeatureNameSchema = z.strictObject({
  name: z.string(),
  projectId: z.string().max(100).nullish(),
});
type FeatureNameQuestion = z.output<typeof validateFeatureNameSchema>;

/**
 * POST /api/admin/features/validate: passes when a new feature could take the name: URL-safe
 * (400) and not taken in any project (409), an archived flag's name included, as in Unleash.
 */
export async function validateFeatureName(db: Kysely<Database>, input: FeatureNameQuestion): Promise<void> {
  assertUrlSafeName(input.name, "name");
  const taken = await db.selectFrom("features").select("archived_at").where("name", "=", input.name).executeTakeFirst();
  if (taken)
    throw new NameExistsError(
      taken.archived_at ? "An archived flag with that name already exists." : "A flag with that name already exists.",
    );
}
