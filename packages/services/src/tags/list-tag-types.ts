import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { type TagType, tagTypeFromRow } from "./tag-type.ts";

const COLUMNS = ["name", "description", "icon", "color"] as const;

/** Every tag type, by name. */
export async function listTagTypes(db: Kysely<Database>): Promise<TagType[]> {
  return (await db.selectFrom("tag_types").select(COLUMNS).orderBy("name").execute()).map(tagTypeFromRow);
}

export async function getTagType(db: Kysely<Database>, name: string): Promise<TagType> {
  const row = await db.selectFrom("tag_types").select(COLUMNS).where("name", "=", name).executeTakeFirst();
  if (!row) throw tagTypeNotFound(name);
  return tagTypeFromRow(row);
}

export function tagTypeNotFound(name: string): NotFoundError {
  return new NotFoundError(`There is no tag type "${name}".`);
}
