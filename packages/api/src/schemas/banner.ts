import { BANNER_VARIANTS } from "@vexil/services";
import { z } from "zod";

export const bannerVariantSchema = z.enum(BANNER_VARIANTS).meta({ description: "Look of the banner" });

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
  linkText: optionalText("Text of the link (clients show \"More info\" when null)"),
  dialogTitle: optionalText("Title of the dialog (clients use linkText when null)"),
  dialog: optionalText("Markdown shown in the dialog"),
};

/**
 * A banner id in the path. REST hands it over as text, typed clients as a number; anything but a
 * positive integer is a 400, as the contract asks of params that fail their schema.
 */
export const bannerIdSchema = z
  .union([z.int(), z.string().regex(/^[0-9]+$/, "must be a positive integer").transform(Number)])
  .pipe(z.int().min(1))
  .meta({
    description: "Banner id, an integer >= 1",
    // Documented as what it is, an integer; the text form is how any path carries it.
    override: ({ jsonSchema }) => {
      delete jsonSchema.anyOf;
      Object.assign(jsonSchema, { type: "integer", minimum: 1 });
    },
  });

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
