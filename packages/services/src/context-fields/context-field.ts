import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";
import { z } from "zod";

/** A value a context field may take, with what it means (docs/context-fields.md). */
export interface LegalValue {
  value: string;
  description?: string;
}

/** A context field as Unleash's contextFieldSchema has it. */
export interface ContextField {
  name: string;
  description: string | null;
  stickiness: boolean;
  sortOrder: number;
  legalValues: LegalValue[];
  createdAt: Date;
}

const URL_FRIENDLY = "must need no URL encoding (letters, digits and - _ . ~)";

/** As Unleash's nameType: 1-100 characters that need no URL encoding. */
const contextFieldNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9\-_.~]+$/, { message: URL_FRIENDLY });

export const legalValueSchema = z.strictObject({
  value: z.string().min(1).max(100),
  description: z.string().nullish(),
});

const legalValuesSchema = z
  .array(legalValueSchema)
  .max(1000)
  .refine((values) => new Set(values.map((v) => v.value)).size === values.length, { message: "must not list a value twice" });

const changesShape = {
  description: z.string().max(250).nullish(),
  stickiness: z.boolean().optional(),
  sortOrder: z.number().int().min(-2_147_483_648).max(2_147_483_647).optional(),
  legalValues: legalValuesSchema.nullish(),
};

export const contextFieldInputSchema = z.strictObject({ name: contextFieldNameSchema, ...changesShape });

/** PUT of a context field: the name is the path's; a field left out keeps its value. */
export const contextFieldChangesSchema = z.strictObject(changesShape);

/** A legal value as stored: an empty or null description is none. */
export const storedLegalValue = (v: { value: string; description?: string | null }): LegalValue =>
  v.description ? { value: v.value, description: v.description } : { value: v.value };

/** The one place where a context field row becomes a context field. */
export function contextFieldFromRow(row: Selectable<Database["context_fields"]>): ContextField {
  return {
    name: row.name,
    description: row.description,
    stickiness: row.stickiness,
    sortOrder: row.sort_order,
    legalValues: ((row.legal_values as LegalValue[] | null) ?? []).map(storedLegalValue),
    createdAt: row.created_at,
  };
}
