import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NameExistsError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { requireProject } from "../projects/require-project.ts";
import { assertFeatureType } from "../feature-types/assert-feature-type.ts";
import { type Feature, featureFromRow } from "./feature.ts";
import { assertUrlSafeName } from "./url-safe-name.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { recordInitialStage } from "../feature-lifecycle/record-stages.ts";

export interface NewFeature {
  name: string;
  description?: string | null | undefined;
  type?: string | undefined;
  impressionData?: boolean | undefined;
}

/** Creates a feature in a project, off with nothing in every environment. */
export async function createFeature(db: Kysely<Database>, by: Principal | null, projectId: string, input: NewFeature): Promise<Feature> {
  return inTransaction(db, async (trx) => {
    assertUrlSafeName(input.name, "name");
    const type = input.type ?? "release";
    await assertFeatureType(trx, type);
    await requireProject(trx, projectId);

    // Feature names are unique across projects (as in Unleash); ON CONFLICT keeps that true under
    // concurrent creates.
    const row = await trx
      .insertInto("features")
      .values({
        name: input.name,
        project_id: projectId,
        description: input.description ?? null,
        type,
        impression_data: input.impressionData ?? false,
      })
      .onConflict((oc) => oc.column("name").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      // Unleash's two messages: an archived flag keeps its name until it is deleted for good.
      const taken = await trx.selectFrom("features").select("archived_at").where("name", "=", input.name).executeTakeFirst();
      throw new NameExistsError(
        taken?.archived_at
          ? `An archived flag with that name already exists: "${input.name}" is archived; revive it, or delete it for good to reuse its name.`
          : `A feature named "${input.name}" already exists.`,
      );
    }

    const feature = featureFromRow(row);
    await recordInitialStage(trx, feature.name, row.created_at);
    await appendEvent(trx, by, { type: "feature-created", project: projectId, featureName: feature.name, data: feature });
    return feature;
  });
}
