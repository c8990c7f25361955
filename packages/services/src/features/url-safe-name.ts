import { z } from "zod";
import { ValidationError } from "../errors/domain-error.ts";

const RULE = 'must be 1-100 characters that need no URL encoding (letters, digits and - _ . ! ~ * \' ( )), and not "." or ".."';

/**
 * Names of projects, environments, features and variants end up in URL paths (Unleash's rule),
 * so they must come back out of a path exactly as they went in.
 */
function isUrlSafeName(value: string): boolean {
  return value.length >= 1 && value.length <= 100 && encodeURIComponent(value) === value && value !== "." && value !== "..";
}

/** The same rule for zod schemas, in the API's input and in the variant rules. */
export const urlSafeName = z.string().refine(isUrlSafeName, { message: RULE });

/** For services called with plain values: throws a ValidationError naming the field. */
export function assertUrlSafeName(value: string, path: string): void {
  if (!isUrlSafeName(value)) {
    throw new ValidationError(`"${path}" ${RULE}.`, [{ path, message: RULE }]);
  }
}
