import { z } from "zod";

/** Largest id a Postgres `integer` column holds; users, tokens and change requests use one. */
export const INTEGER_ID_MAX = 2_147_483_647;

/**
 * A record id in the path. REST hands it over as text, typed clients as a number; anything but a
 * whole number from 1 to `max` is a 400, as the contract asks of params that fail their schema.
 * The upper bound is the column's: beyond it Postgres refuses the parameter itself (a 500 the
 * fuzzer found), and no such record can exist anyway.
 */
export function recordIdSchema(description: string, max: number = INTEGER_ID_MAX) {
  const message = `must be a whole number from 1 to ${max}`;
  return z
    .union([z.number(), z.string().regex(/^[0-9]+$/, message).transform(Number)])
    // One check, so a bad id is one detail however many ways it is wrong.
    .pipe(z.number().refine((n) => Number.isInteger(n) && n >= 1 && n <= max, message))
    .meta({
      description: `${description}, an integer from 1 to ${max}`,
      // Documented as what it is, an integer; the text form is how any path carries it.
      override: ({ jsonSchema }) => {
        delete jsonSchema.anyOf;
        Object.assign(jsonSchema, { type: "integer", minimum: 1, maximum: max });
      },
    });
}
