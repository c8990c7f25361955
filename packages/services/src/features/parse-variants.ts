import { ValidationError } from "../errors/domain-error.ts";
import { normaliseVariantWeights } from "./normalise-variant-weights.ts";
import { type Variant, variantsInputSchema } from "./variant.ts";

/**
 * Checks a variants array against every rule of docs/flag-model.md#variants and returns it as it is stored:
 * defaults filled in, weights normalised, sorted by name. `path` names the array in the details
 * of a ValidationError; `what` says where it came from in the message.
 */
export function parseVariants(value: unknown, options: { path?: string; what?: string } = {}): Variant[] {
  const path = options.path ?? "variants";
  const what = options.what ?? "The variants";
  const parsed = variantsInputSchema.safeParse(value);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      path: [path, ...issue.path.map(String)].join("."),
      message: issue.message,
    }));
    const summary = details.map((d) => `${d.path}: ${d.message}`).join("; ");
    throw new ValidationError(`${what} are not valid: ${summary}`, details);
  }
  const variants = parsed.data.map(({ payload, ...rest }) => (payload ? { ...rest, payload } : rest));
  try {
    return normaliseVariantWeights(variants, path);
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError(`${what} are not valid: ${error.message}.`, error.details);
    throw error;
  }
}
