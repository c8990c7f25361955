import { z } from "zod";

/** Largest id a Postgres `integer` column holds; users, tokens and change requests use one. */
const INTEGER_ID_MAX = 2_147_483_647;

/**
 * A whole number from the path or the query: REST hands it over as text, typed clients as a
 * number; anything outside `min`..`max` is one 400 detail, however many ways it is wrong.
 */
export function wholeNumberSchema(description: string, min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .union([
      z.number(),
      z
        .string()
        .regex(/^[0-9]+$/, message)
        .transform(Number),
    ])
    .pipe(z.number().refine((n) => Number.isInteger(n) && n >= min && n <= max, message))
    .meta({
      description: `${description}, an integer from ${min} to ${max}`,
      // Documented as what it is, an integer; the text form is how a path or query carries it.
      override: ({ jsonSchema }) => {
        delete jsonSchema.anyOf;
        Object.assign(jsonSchema, { type: "integer", minimum: min, maximum: max });
      },
    });
}

/**
 * A record id in the path. Its upper bound is the column's: beyond it Postgres refuses the
 * parameter itself (a 500 the fuzzer found), and no such record can exist anyway.
 */
export function recordIdSchema(description: string, max: number = INTEGER_ID_MAX) {
  return wholeNumberSchema(description, 1, max);
}
