import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NameExistsError, ValidationError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { appendEvent } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { tagNotFound } from "./list-tags.ts";
import { distinctTags, type Tag, tagInputSchema } from "./tag.ts";

/** POST /tags: a new tag of an existing type; a taken one is a 409. */
export async function createTag(db: Kysely<Database>, by: Principal | null, input: unknown): Promise<Tag> {
  const { type, value } = parseInput(tagInputSchema, input, "", "The tag");
  return inTransaction(db, async (trx) => {
    await lockTagType(trx, type, "type");
    const row = await trx
      .insertInto("tags")
      .values({ type, value })
      .onConflict((oc) => oc.columns(["type", "value"]).doNothing())
      .returning(["type", "value"])
      .executeTakeFirst();
    if (!row) throw new NameExistsError(`A tag with type "${type}" and value "${value}" already exists.`);
    await appendEvent(trx, by, { type: "tag-created", data: row });
    return row;
  });
}

/**
 * Locks the flags that carry the tags of a type (or one of its tags), in name order, before the
 * tags are deleted: the deletion cascades to their rows of feature_tags, whose trigger writes each
 * flag's tag keys (docs/search.md#tag-keys). Taken first, as every other writer of a flag takes it,
 * so that the cascade never waits for a flag while holding what that flag's writer waits for.
 */
export async function lockCarriers(trx: Transaction<Database>, type: string, value?: string): Promise<void> {
  await trx
    .selectFrom("features")
    .select("name")
    .where("name", "in", (eb) =>
      eb
        .selectFrom("feature_tags")
        .select("feature_name")
        .where("tag_type", "=", type)
        .$if(value !== undefined, (qb) => qb.where("tag_value", "=", value as string)),
    )
    .orderBy("name")
    .forNoKeyUpdate()
    .execute();
}

/** Deletes a tag, which every flag loses (as in Unleash); an unknown tag is a 404 (Unleash answers 200). */
export async function deleteTag(db: Kysely<Database>, by: Principal | null, tag: Tag): Promise<void> {
  return inTransaction(db, async (trx) => {
    await lockCarriers(trx, tag.type, tag.value);
    const row = await trx
      .deleteFrom("tags")
      .where("type", "=", tag.type)
      .where("value", "=", tag.value)
      .returning(["type", "value"])
      .executeTakeFirst();
    if (!row) throw tagNotFound(tag);
    await appendEvent(trx, by, { type: "tag-deleted", data: row });
  });
}

/**
 * Holds the tag type until the transaction ends, so that it cannot be deleted under a tag being
 * made of it; an unknown type is a 400 naming `path` (it comes from a body).
 */
async function lockTagType(trx: Transaction<Database>, type: string, path: string): Promise<void> {
  const found = await trx.selectFrom("tag_types").select("name").where("name", "=", type).forKeyShare().executeTakeFirst();
  if (!found) throw unknownTagType(type, path);
}

function unknownTagType(type: string, path: string): ValidationError {
  const message = `Tag type '${type}' does not exist`;
  return new ValidationError(`${message}.`, [{ path, message }]);
}

/**
 * Makes each tag that does not exist yet (with its `tag-created` event), as tagging a flag does in
 * Unleash, and holds every one of them, and their types, until the transaction ends, so that none
 * is deleted before the flags that get it are tagged. Types first, then tags, each in one order,
 * so that concurrent writes cannot deadlock. `typePath` names the i-th tag's type in the body, for a 400.
 */
export async function ensureTags(
  trx: Transaction<Database>,
  by: Principal | null,
  tags: readonly Tag[],
  typePath: (index: number) => string,
): Promise<void> {
  const distinct = distinctTags(tags);
  if (distinct.length === 0) return;
  const types = [...new Set(distinct.map((t) => t.type))];
  const held = await trx.selectFrom("tag_types").select("name").where("name", "in", types).orderBy("name").forKeyShare().execute();
  const known = new Set(held.map((t) => t.name));
  const unknown = distinct.filter((t) => !known.has(t.type)).sort((a, b) => a.index - b.index)[0];
  if (unknown) throw unknownTagType(unknown.type, typePath(unknown.index));

  for (const tag of distinct) {
    // A concurrent insert of the same tag makes ours do nothing; the next look finds theirs.
    for (let round = 0; ; round++) {
      const found = await trx
        .selectFrom("tags")
        .select("value")
        .where("type", "=", tag.type)
        .where("value", "=", tag.value)
        .forKeyShare()
        .executeTakeFirst();
      if (found) break;
      const made = await trx
        .insertInto("tags")
        .values({ type: tag.type, value: tag.value })
        .onConflict((oc) => oc.columns(["type", "value"]).doNothing())
        .returning(["type", "value"])
        .executeTakeFirst();
      if (made) {
        await appendEvent(trx, by, { type: "tag-created", data: made });
        break;
      }
      if (round > 3) throw new Error(`the tag ${tag.type}:${tag.value} kept changing under the transaction`);
    }
  }
}
