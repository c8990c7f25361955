import { BANNER_VARIANTS } from "@vexil/services";
import { z } from "zod";
import { recordIdSchema } from "./record-id.ts";

const bannerVariantSchema = z.enum(BANNER_VARIANTS).meta({ description: "Look of the banner" });

// White space alone would show an empty banner; a valid message is still stored exactly as given.
const messageSchema = z
  .string()
  .min(1)
  .refine((m) => m.trim() !== "", "must not be empty")
  .meta({ description: "Text shown to all users; markdown, stored and returned as given" });

const optionalText = (description: string) => z.string().nullable().optional().meta({ description });

/** The fields a client writes; every one but `message` may be left out. */
export const bannerFieldsShape = {
  message: messageSchema,
  enabled: z.boolean().optional().meta({ description: "Whether the banner is displayed now (default true)" }),
  variant: bannerVariantSchema.optional(),
  sticky: z.boolean().optional().meta({ description: "Whether the banner stays fixed on the screen (default false)" }),
  icon: optionalText('Name of an icon; "none" shows no icon, null the default icon of the variant'),
  link: optionalText('Absolute or relative link; "dialog" makes a click open the dialog'),
  linkText: optionalText('Text of the link (clients show "More info" when null)'),
  dialogTitle: optionalText("Title of the dialog (clients use linkText when null)"),
  dialog: optionalText("Markdown shown in the dialog"),
};

/** Banners live in a `bigint` column, so their ids go as far as a JSON number stays exact. */
export const bannerIdSchema = recordIdSchema("Banner id", Number.MAX_SAFE_INTEGER);

export const bannerSchema = z
  .object({
    id: z.int().min(1),
    message: z.string(),
    enabled: z.boolean(),
    variant: bannerVariantSchema,
    sticky: z.boolean(),
    icon: z.string().nullable(),
    link: z.string().nullable(),
    linkText: z.string().nullable(),
    dialogTitle: z.string().nullable(),
    dialog: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Banner" });
