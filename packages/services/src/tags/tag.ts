import { z } from "zod";
import { tagColorSchema, tagTypeNameSchema } from "./tag-type.ts";

/** A tag: a value of a tag type, such as `simple:checkout`. */
export interface Tag {
  type: string;
  value: string;
}

/** A tag as a flag carries it, with its type's colour. */
export interface FeatureTag extends Tag {
  color: string | null;
}

/**
 * Unleash's rule for a new tag's value on every path (its `POST /tags` rule; its feature paths
 * store values untrimmed and blank): leading and trailing white space is trimmed, then 2-50
 * characters on one line.
 */
const tagValueSchema = z
  .string()
  .trim()
  .min(2)
  .max(50)
  .regex(/^[^\n\r\u2028\u2029]*$/, { message: "must be on one line" });

/** A tag in a body. `color` is accepted and ignored, as in Unleash: a tag shows its type's colour. */
export const tagInputSchema = z.strictObject({
  type: tagTypeNameSchema,
  value: tagValueSchema,
  color: tagColorSchema.nullish(),
});

/** How many tags one request may add or remove, and to how many flags (docs/limits.md#field-lengths). */
const MAX_TAGS_PER_REQUEST = 100;
const MAX_FEATURES_PER_REQUEST = 1000;

export const tagChangesSchema = z.strictObject({
  addedTags: z.array(tagInputSchema).max(MAX_TAGS_PER_REQUEST),
  removedTags: z.array(tagInputSchema).max(MAX_TAGS_PER_REQUEST),
});

/** PUT /projects/{projectId}/tags: the same changes for several flags of the project. */
export const projectTagChangesSchema = z.strictObject({
  features: z.array(z.string().min(1).max(100)).max(MAX_FEATURES_PER_REQUEST),
  tags: tagChangesSchema,
});

/**
 * Each tag once, in one order (type, then value, by code point), so that writes taking the same
 * rows take them in the same order and cannot deadlock; `index` is where it first was in `tags`.
 */
export function distinctTags(tags: readonly Tag[]): (Tag & { index: number })[] {
  const seen = new Map<string, Tag & { index: number }>();
  for (const [index, { type, value }] of tags.entries()) {
    const key = JSON.stringify([type, value]);
    if (!seen.has(key)) seen.set(key, { type, value, index });
  }
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...seen.values()].sort((a, b) => byCodePoint(a.type, b.type) || byCodePoint(a.value, b.value));
}
