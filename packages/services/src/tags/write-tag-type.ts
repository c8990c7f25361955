import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NameExistsError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { appendEvent } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { tagTypeNotFound } from "./list-tag-types.ts";
import { lockCarriers } from "./write-tag.ts";
import { type TagType, tagTypeChangesSchema, tagTypeFromRow, tagTypeInputSchema } from "./tag-type.ts";

const nameTaken = (name: string) => new NameExistsError(`There already exists a tag-type with the name ${name}`);

async function assertNameFree(db: Kysely<Database>, name: string): Promise<void> {
  if (await db.selectFrom("tag_types").select("name").where("name", "=", name).executeTakeFirst()) throw nameTaken(name);
}

/** POST /tag-types/validate: the body would make a new tag type (400 if not valid, 409 if the name is taken). */
export async function validateTagType(db: Kysely<Database>, input: unknown): Promise<void> {
  const tagType = parseInput(tagTypeInputSchema, input, "", "The tag type");
  await assertNameFree(db, tagType.name);
}

export async function createTagType(db: Kysely<Database>, by: Principal | null, input: unknown): Promise<TagType> {
  const tagType = parseInput(tagTypeInputSchema, input, "", "The tag type");
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto("tag_types")
      .values({ name: tagType.name, description: tagType.description ?? null, icon: tagType.icon ?? null, color: tagType.color ?? null })
      .onConflict((oc) => oc.column("name").doNothing())
      .returning(["name", "description", "icon", "color"])
      .executeTakeFirst();
    if (!row) throw nameTaken(tagType.name);
    const created = tagTypeFromRow(row);
    await appendEvent(trx, by, { type: "tag-type-created", data: created });
    return created;
  });
}

/** PUT /tag-types/{name}: `undefined` keeps a field, `null` clears it. An unknown type is a 404 (Unleash answers 200 and stores nothing). */
export async function updateTagType(db: Kysely<Database>, by: Principal | null, name: string, input: unknown): Promise<TagType> {
  const changes = parseInput(tagTypeChangesSchema, input, "", "The tag type");
  return inTransaction(db, async (trx) => {
    const before = await trx
      .selectFrom("tag_types")
      .select(["name", "description", "icon", "color"])
      .where("name", "=", name)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!before) throw tagTypeNotFound(name);
    const row = await trx
      .updateTable("tag_types")
      .set({
        description: changes.description === undefined ? before.description : changes.description,
        icon: changes.icon === undefined ? before.icon : changes.icon,
        color: changes.color === undefined ? before.color : changes.color,
      })
      .where("name", "=", name)
      .returning(["name", "description", "icon", "color"])
      .executeTakeFirstOrThrow();
    const after = tagTypeFromRow(row);
    await appendEvent(trx, by, { type: "tag-type-updated", data: after, preData: tagTypeFromRow(before) });
    return after;
  });
}

/** Deletes a tag type with its tags, which every flag loses (as in Unleash). */
export async function deleteTagType(db: Kysely<Database>, by: Principal | null, name: string): Promise<void> {
  return inTransaction(db, async (trx) => {
    await lockCarriers(trx, name);
    const row = await trx
      .deleteFrom("tag_types")
      .where("name", "=", name)
      .returning(["name", "description", "icon", "color"])
      .executeTakeFirst();
    if (!row) throw tagTypeNotFound(name);
    await appendEvent(trx, by, { type: "tag-type-deleted", data: null, preData: tagTypeFromRow(row) });
  });
}
