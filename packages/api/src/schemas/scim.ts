import { z } from "zod";

const index = (description: string) =>
  z
    .union([
      z.number(),
      z
        .string()
        .regex(/^-?[0-9]{1,9}$/, "must be a whole number")
        .transform(Number),
    ])
    .pipe(z.number().int().min(-999_999_999).max(999_999_999))
    .meta({
      description,
      override: ({ jsonSchema }) => {
        delete jsonSchema.anyOf;
        Object.assign(jsonSchema, { type: "integer", minimum: -999_999_999, maximum: 999_999_999 });
      },
    })
    .optional();

/** A list's query (RFC 7644 §3.4.2): the filter, paging, and the attributes Entra leaves out of large groups. */
export const scimListShape = {
  filter: z
    .string()
    .max(1000)
    .optional()
    .meta({ description: 'attr eq "value" terms joined by and (userName, externalId, id; displayName for groups)' }),
  startIndex: index("1-based index of the first result; below 1 counts as 1"),
  count: index("Results per page, at most 100; 0 answers totalResults alone"),
  attributes: z.string().max(1000).optional().meta({ description: "Accepted; every kept attribute is returned" }),
  excludedAttributes: z.string().max(1000).optional().meta({ description: "`members` leaves out a group's members" }),
};
export const scimListQuerySchema = z.strictObject(scimListShape);

const meta = (resourceType: string) => z.object({ resourceType: z.literal(resourceType), created: z.iso.datetime(), location: z.string() });

export const scimUserSchema = z
  .object({
    schemas: z.array(z.string()),
    id: z.string(),
    externalId: z.string().optional(),
    userName: z.string(),
    displayName: z.string().optional(),
    name: z.object({ formatted: z.string() }).optional(),
    emails: z.array(z.object({ value: z.string(), type: z.literal("work"), primary: z.literal(true) })).optional(),
    active: z.boolean(),
    meta: meta("User"),
  })
  .meta({ id: "ScimUser", description: "A provisioned user as SCIM shows it (RFC 7643 §4.1)" });

export const scimGroupSchema = z
  .object({
    schemas: z.array(z.string()),
    id: z.string(),
    externalId: z.string().optional(),
    displayName: z.string(),
    members: z.array(z.object({ value: z.string(), display: z.string(), type: z.literal("User") })).optional(),
    meta: meta("Group"),
  })
  .meta({ id: "ScimGroup", description: "A provisioned group as SCIM shows it (RFC 7643 §4.2)" });

export const scimListSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    schemas: z.array(z.string()),
    totalResults: z.number().int(),
    startIndex: z.number().int(),
    itemsPerPage: z.number().int(),
    Resources: z.array(item),
  });

const emailInput = z.looseObject({
  value: z.string(),
  type: z.string().optional(),
  primary: z.union([z.boolean(), z.string()]).optional(),
});

/** A User resource as a provider sends it; attributes beyond these are accepted and ignored. */
export const scimUserInputShape = {
  schemas: z.array(z.string()).optional(),
  userName: z.string(),
  externalId: z.string().nullish(),
  displayName: z.string().nullish(),
  name: z.looseObject({ formatted: z.string().optional(), givenName: z.string().optional(), familyName: z.string().optional() }).nullish(),
  emails: z.array(emailInput).nullish(),
  active: z.union([z.boolean(), z.enum(["True", "False", "true", "false"])]).optional(),
};

/** A Group resource as a provider sends it. */
export const scimGroupInputShape = {
  schemas: z.array(z.string()).optional(),
  displayName: z.string(),
  externalId: z.string().nullish(),
  members: z.array(z.looseObject({ value: z.string(), display: z.string().optional() })).nullish(),
};

/** A PatchOp (RFC 7644 §3.5.2): op in any letter case, a path, or a value of attributes without one. */
export const scimPatchShape = {
  schemas: z.array(z.string()).optional(),
  Operations: z.array(z.looseObject({ op: z.string(), path: z.string().optional(), value: z.unknown().optional() })).min(1),
};

/** The discovery documents: their fields are RFC 7643's, listed there. */
export const scimDocumentSchema = z.looseObject({ schemas: z.array(z.string()) });
