import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { ConflictError, ValidationError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { appendEvent } from "../events/append-event.ts";
import { requireProject } from "../projects/require-project.ts";
import { inRetriedTransaction } from "../transactions/in-transaction.ts";
import { featureNotFound, featureTagsOf } from "./feature-tags.ts";
import { distinctTags, type FeatureTag, projectTagChangesSchema, type Tag, tagChangesSchema, tagInputSchema } from "./tag.ts";
import { ensureTags } from "./write-tag.ts";

export interface TaggedFeature {
  name: string;
  project: string;
  archived: boolean;
}

/**
 * Holds the flags until the transaction ends (so none is archived or deleted while its tags
 * change), in name order so that two writes over the same flags cannot deadlock. Locked for
 * update, not shared: the tags' trigger writes each flag's row (its tag keys,
 * docs/search.md#tag-keys), and two writes holding a shared lock would each wait for the other's.
 */
async function lockFeatures(trx: Transaction<Database>, names: readonly string[]): Promise<Map<string, TaggedFeature>> {
  if (names.length === 0) return new Map();
  const rows = await trx
    .selectFrom("features")
    .select(["name", "project_id", "archived_at"])
    .where("name", "in", names)
    .orderBy("name")
    .forNoKeyUpdate()
    .execute();
  return new Map(rows.map((r) => [r.name, { name: r.name, project: r.project_id, archived: r.archived_at !== null }]));
}

function assertNotArchived(feature: TaggedFeature): void {
  if (feature.archived) throw new ConflictError(`The feature "${feature.name}" is archived: revive it before changing its tags.`);
}

async function lockFeature(trx: Transaction<Database>, featureName: string): Promise<TaggedFeature> {
  const feature = (await lockFeatures(trx, [featureName])).get(featureName);
  if (!feature) throw featureNotFound(featureName);
  assertNotArchived(feature);
  return feature;
}

/**
 * The step every tag write of flags shares: adds `added` to each flag (making tags that do not
 * exist yet), then removes `removed`, so a tag in both ends up removed, as in Unleash. Appends
 * `feature-tagged` and `feature-untagged` only for what changed. Flags come in name order and
 * tags in distinctTags' order, so that concurrent writes take rows in one order.
 */
export async function changeFeatureTags(
  trx: Transaction<Database>,
  by: Principal | null,
  features: readonly TaggedFeature[],
  added: readonly Tag[],
  removed: readonly Tag[],
  typePath: (index: number) => string,
): Promise<void> {
  await ensureTags(trx, by, added, typePath);
  const adding = distinctTags(added).map(({ type, value }) => ({ type, value }));
  const removing = distinctTags(removed).map(({ type, value }) => ({ type, value }));
  for (const feature of features) {
    for (const tag of adding) {
      const tagged = await trx
        .insertInto("feature_tags")
        .values({ feature_name: feature.name, tag_type: tag.type, tag_value: tag.value })
        .onConflict((oc) => oc.columns(["feature_name", "tag_type", "tag_value"]).doNothing())
        .returning("feature_name")
        .executeTakeFirst();
      if (tagged) await appendEvent(trx, by, { type: "feature-tagged", project: feature.project, featureName: feature.name, data: tag });
    }
    for (const tag of removing) {
      const untagged = await trx
        .deleteFrom("feature_tags")
        .where("feature_name", "=", feature.name)
        .where("tag_type", "=", tag.type)
        .where("tag_value", "=", tag.value)
        .returning("feature_name")
        .executeTakeFirst();
      if (untagged) {
        await appendEvent(trx, by, {
          type: "feature-untagged",
          project: feature.project,
          featureName: feature.name,
          data: null,
          preData: tag,
        });
      }
    }
  }
}

/** POST /features/{featureName}/tags: tags a flag, making the tag if it is new; tagging it again changes nothing. */
export async function addFeatureTag(db: Kysely<Database>, by: Principal | null, featureName: string, input: unknown): Promise<Tag> {
  const { type, value } = parseInput(tagInputSchema, input, "", "The tag");
  return inRetriedTransaction(db, async (trx) => {
    const feature = await lockFeature(trx, featureName);
    await changeFeatureTags(trx, by, [feature], [{ type, value }], [], () => "type");
    return { type, value };
  });
}

/** PUT /features/{featureName}/tags: adds and removes tags in one transaction, and answers the flag's tags. */
export async function updateFeatureTags(
  db: Kysely<Database>,
  by: Principal | null,
  featureName: string,
  input: unknown,
): Promise<FeatureTag[]> {
  const { addedTags, removedTags } = parseInput(tagChangesSchema, input, "", "The tag changes");
  return inRetriedTransaction(db, async (trx) => {
    const feature = await lockFeature(trx, featureName);
    await changeFeatureTags(trx, by, [feature], addedTags, removedTags, (i) => `addedTags.${i}.type`);
    return featureTagsOf(trx, featureName);
  });
}

/** DELETE /features/{featureName}/tags/{type}/{value}: a tag the flag does not carry is no error (as in Unleash). */
export async function removeFeatureTag(db: Kysely<Database>, by: Principal | null, featureName: string, tag: Tag): Promise<void> {
  return inRetriedTransaction(db, async (trx) => {
    const feature = await lockFeature(trx, featureName);
    await changeFeatureTags(trx, by, [feature], [], [tag], () => "type");
  });
}

/**
 * PUT /projects/{projectId}/tags: the same tag changes for several flags of the project, all or
 * nothing. A flag that does not exist or is in another project is a 400 naming it.
 */
export async function updateProjectFeatureTags(
  db: Kysely<Database>,
  by: Principal | null,
  projectId: string,
  input: unknown,
): Promise<void> {
  const { features, tags } = parseInput(projectTagChangesSchema, input, "", "The tag changes");
  return inRetriedTransaction(db, async (trx) => {
    await requireProject(trx, projectId);
    const names = [...new Set(features)].sort();
    const found = await lockFeatures(trx, names);
    for (const [i, name] of features.entries()) {
      const feature = found.get(name);
      if (!feature || feature.project !== projectId) {
        const message = `there is no feature "${name}" in the project "${projectId}"`;
        throw new ValidationError(`Cannot change the tags of "${name}": ${message}.`, [{ path: `features.${i}`, message }]);
      }
    }
    const tagged = names.map((name) => found.get(name) as TaggedFeature);
    for (const feature of tagged) assertNotArchived(feature);
    await changeFeatureTags(trx, by, tagged, tags.addedTags, tags.removedTags, (i) => `tags.addedTags.${i}.type`);
  });
}
