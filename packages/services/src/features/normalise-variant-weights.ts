import { ValidationError } from "../errors/domain-error.ts";
import { TOTAL_WEIGHT, type Variant } from "./variant.ts";

type WeightedVariant = Omit<Variant, "weight"> & { weight?: number | undefined };

/**
 * Unleash's rule: `fix` variants keep their weight, and what is left of 1000 is split evenly over
 * the `variable` ones in the order given, the first `remainder` of them getting one more. The
 * result is sorted by name, which is how variants are stored and shown.
 */
export function normaliseVariantWeights(variants: WeightedVariant[], path = "variants"): Variant[] {
  if (variants.length === 0) return [];
  const variable = variants.filter((v) => v.weightType === "variable");
  if (variable.length === 0) {
    const message = 'There must be at least one "variable" variant';
    throw new ValidationError(message, [{ path, message }]);
  }
  const fixed = variants.reduce((sum, v) => sum + (v.weightType === "fix" ? (v.weight ?? 0) : 0), 0);
  if (fixed > TOTAL_WEIGHT) {
    const message = `The weights of the "fix" variants add up to ${fixed}, more than ${TOTAL_WEIGHT}`;
    throw new ValidationError(message, [{ path, message }]);
  }

  const share = Math.floor((TOTAL_WEIGHT - fixed) / variable.length);
  const remainder = (TOTAL_WEIGHT - fixed) % variable.length;
  let variableIndex = 0;
  const weighted = variants.map((v): Variant => {
    const weight = v.weightType === "fix" ? (v.weight ?? 0) : share + (variableIndex++ < remainder ? 1 : 0);
    return { ...v, weight };
  });
  // Code-point order, the same on every machine whatever its locale.
  return weighted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
