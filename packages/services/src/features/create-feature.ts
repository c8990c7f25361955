import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NameExistsError, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { requireProject } from "../projects/require-project.ts";
import { FEATURE_TYPES, type Feature, featureFromRow } from "./feature.ts";
import { assertUrlSafeName } from "./url-safe-name.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

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
    if (!(FEATURE_TYPES as readonly string[]).includes(type)) {
      const message = `must be one of ${FEATURE_TYPES.join(", ")}`;
      throw new ValidationError(`"type" ${message}.`, [{ path: "type", message }]);
    }
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
    if (!row) throw new NameExistsError(`A feature named "${input.name}" already exists.`);

    const feature = featureFromRow(row);
    await appendEvent(trx, by, { type: "feature-created", project: projectId, featureName: feature.name, data: feature });
    return feature;
  });
}
