import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";
import { z } from "zod";

/** A kind of tag (Unleash seeds `simple`): its name is the first half of every tag of the kind. */
export interface TagType {
  name: string;
  description: string | null;
  icon: string | null;
  /** `#RRGGBB`, shown on every tag of the type; null for none. */
  color: string | null;
}

const URL_FRIENDLY = 'must need no URL encoding (letters, digits and - _ . ! ~ * \' ( )), and not be "." or ".."';

/** Tag type names (and so the `type` of every tag): 2-50 characters that need no URL encoding, as in Unleash. */
export const tagTypeNameSchema = z
  .string()
  .min(2)
  .max(50)
  .refine((name) => encodeURIComponent(name) === name && name !== "." && name !== "..", { message: URL_FRIENDLY });

export const tagColorSchema = z.string().regex(/^#[0-9A-Fa-f]{6}$/, { message: "must be a colour as #RRGGBB" });

const tagTypeChangesShape = {
  description: z.string().nullish(),
  icon: z.string().nullish(),
  color: tagColorSchema.nullish(),
};

export const tagTypeInputSchema = z.strictObject({ name: tagTypeNameSchema, ...tagTypeChangesShape });

/** PUT of a tag type: `undefined` keeps a field, `null` clears it; the name is the path's. */
export const tagTypeChangesSchema = z.strictObject(tagTypeChangesShape);

/** The one place where a tag type row becomes a tag type. */
export function tagTypeFromRow(row: Pick<Selectable<Database["tag_types"]>, "name" | "description" | "icon" | "color">): TagType {
  return { name: row.name, description: row.description, icon: row.icon, color: row.color };
}
