import type { z } from "zod";
import { ValidationError } from "./domain-error.ts";
import { detailsSentence, issueDetail } from "./issue-sentence.ts";

/**
 * Parses a value with a zod schema, or throws a ValidationError whose details name each field
 * under `path`: for services that are called with plain values (the API, change requests).
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, path: string, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => issueDetail(issue, path));
  throw new ValidationError(`${what} is not valid: ${detailsSentence(details, "it")}`, details);
}
