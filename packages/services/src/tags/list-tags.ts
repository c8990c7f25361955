import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { tagTypeNotFound } from "./list-tag-types.ts";
import type { Tag } from "./tag.ts";

/** Every tag, by type and value. */
export async function listTags(db: Kysely<Database>): Promise<Tag[]> {
  return db.selectFrom("tags").select(["type", "value"]).orderBy("type").orderBy("value").execute();
}

/** The tags of one type, by value; an unknown type is a 404 (Unleash answers an empty list). */
export async function listTagsOfType(db: Kysely<Database>, type: string): Promise<Tag[]> {
  const known = await db.selectFrom("tag_types").select("name").where("name", "=", type).executeTakeFirst();
  if (!known) throw tagTypeNotFound(type);
  return db.selectFrom("tags").select(["type", "value"]).where("type", "=", type).orderBy("value").execute();
}

export async function getTag(db: Kysely<Database>, type: string, value: string): Promise<Tag> {
  const tag = await db.selectFrom("tags").select(["type", "value"]).where("type", "=", type).where("value", "=", value).executeTakeFirst();
  if (!tag) throw tagNotFound({ type, value });
  return tag;
}

export function tagNotFound(tag: Tag): NotFoundError {
  return new NotFoundError(`There is no tag with type "${tag.type}" and value "${tag.value}".`);
}
