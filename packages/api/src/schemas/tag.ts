import { projectTagChangesSchema, tagChangesSchema, tagInputSchema, tagTypeChangesSchema, tagTypeInputSchema } from "@vexil/services";
import { z } from "zod";

export const tagTypeSchema = z
  .object({
    name: z.string(),
    description: z.string().nullable(),
    icon: z.string().nullable(),
    color: z.string().nullable().meta({ description: "#RRGGBB, shown on every tag of the type" }),
  })
  .meta({ id: "TagType" });

/** A tag type's body as it was sent (POST /tag-types/validate echoes it). */
export const tagTypeBodySchema = z.object({
  name: z.string(),
  description: z.string().nullish(),
  icon: z.string().nullish(),
  color: z.string().nullish(),
});

export const tagSchema = z.object({ type: z.string(), value: z.string() }).meta({ id: "Tag" });

export const featureTagSchema = tagSchema
  .extend({ color: z.string().nullable().meta({ description: "The colour of the tag's type" }) })
  .meta({ id: "FeatureTag" });

export const tagTypeInputShape = tagTypeInputSchema.shape;
export const tagTypeChangesShape = tagTypeChangesSchema.shape;
export const tagInputShape = tagInputSchema.shape;
export const tagChangesShape = tagChangesSchema.shape;
export const projectTagChangesShape = projectTagChangesSchema.shape;
