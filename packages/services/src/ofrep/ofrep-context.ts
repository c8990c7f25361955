import {
  CONTEXT_FIELDS,
  type FrontendContext,
  frontendContextSchema,
  plainFrontendContext,
} from "../frontend-evaluation/frontend-context.ts";
import { ValidationError } from "../errors/domain-error.ts";

/** The OpenFeature context's key for the user: Unleash's `userId`. */
const TARGETING_KEY = "targetingKey";
const FIELDS: ReadonlySet<string> = new Set(CONTEXT_FIELDS);

/** A context value as Unleash reads it: text. A structure (OpenFeature allows them) becomes its JSON. */
function asText(value: unknown): string {
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function invalid(path: string, message: string): ValidationError {
  const at = path ? `context.${path}` : "context";
  return new ValidationError(`The context is not valid: ${at}: ${message}`, [{ path: at, message }]);
}

/**
 * The Unleash context of an OpenFeature evaluation context (docs/ofrep.md#ofrep):
 * `targetingKey` is the `userId`, the Unleash context fields are themselves, every other key is a
 * property, its value as text; `null` means absent. The result is held to the frontend API's
 * bounds; a failure names its path under `context`, so that it answers INVALID_CONTEXT.
 */
export function unleashContextFromOfrep(context: unknown): FrontendContext {
  if (context === undefined || context === null) return {};
  if (typeof context !== "object" || Array.isArray(context)) throw invalid("", "expected an object");
  const fields: Record<string, string> = {};
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(context)) {
    if (value === null || value === undefined) continue;
    const field = key === TARGETING_KEY ? "userId" : FIELDS.has(key) ? key : undefined;
    if (field === undefined) {
      properties[key] = asText(value);
      continue;
    }
    if (typeof value === "object") throw invalid(key, "expected a string, a number or a boolean");
    const text = asText(value);
    if (fields[field] !== undefined && fields[field] !== text) throw invalid(key, "targetingKey and userId name the same field and differ");
    fields[field] = text;
  }
  const input = { ...fields, ...(Object.keys(properties).length ? { properties } : {}) };
  const plain = plainFrontendContext(input);
  if (plain) return plain;
  const parsed = frontendContextSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  // A property's path is its name: it was a key of the context itself.
  const path = (issue?.path ?? []).map(String).filter((segment, i) => !(i === 0 && segment === "properties"));
  throw invalid(path.join("."), issue?.message ?? "not valid");
}
