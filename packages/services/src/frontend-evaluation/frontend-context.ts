import { z } from "zod";

/** The longest value a context field or property may hold, and the most properties a context may carry. */
const MAX_CONTEXT_VALUE = 1000;
const MAX_CONTEXT_PROPERTIES = 100;
const MAX_PROPERTY_NAME = 100;

/** The fields of an Unleash context that are not properties (as in Unleash). */
export const CONTEXT_FIELDS = ["userId", "sessionId", "remoteAddress", "appName", "environment", "currentTime"] as const;

const value = z.string().max(MAX_CONTEXT_VALUE);
// SDKs send property values as strings; a number or boolean in a POST body means the same text,
// and null means no value, as it does to an SDK.
const propertyValue = z.union([value, z.number(), z.boolean(), z.null()]);

/**
 * The user's context as a browser sends it to the frontend API (docs/sdk-protocols.md#frontend-api). Empty fields count
 * as absent, as in Unleash; `currentTime` must be a date, since it is what date constraints compare.
 */
export const frontendContextSchema = z.strictObject({
  userId: value.optional(),
  sessionId: value.optional(),
  remoteAddress: value.optional(),
  appName: value.optional(),
  environment: value.optional(),
  currentTime: value.refine((v) => v === "" || !Number.isNaN(Date.parse(v)), "must be a date (ISO-8601)").optional(),
  properties: z
    .record(z.string().min(1).max(MAX_PROPERTY_NAME), propertyValue)
    .refine((p) => Object.keys(p).length <= MAX_CONTEXT_PROPERTIES, `at most ${MAX_CONTEXT_PROPERTIES} properties`)
    .transform(
      (p) => Object.fromEntries(Object.entries(p).flatMap(([k, v]) => (v === null ? [] : [[k, String(v)]]))) as Record<string, string>,
    )
    .optional(),
});

export type FrontendContext = z.output<typeof frontendContextSchema>;

const FIELD_NAMES: ReadonlySet<string> = new Set(CONTEXT_FIELDS);
const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};
const isValue = (value: unknown): value is string => typeof value === "string" && value.length <= MAX_CONTEXT_VALUE;

/**
 * What frontendContextSchema.parse answers for a context as browsers and providers send it (known
 * fields and properties, every value within its limits), made without zod, which was a tenth of a
 * repeated poll's CPU (docs/sdk-protocols.md#poll-etags); undefined for any other input, which the
 * schema then parses, and refuses with its own messages where it must.
 */
export function plainFrontendContext(input: unknown): FrontendContext | undefined {
  if (!isPlainObject(input)) return undefined;
  const context: FrontendContext = {};
  for (const key of Object.keys(input)) {
    const given = input[key];
    if (key === "properties") {
      if (!isPlainObject(given)) return undefined;
      const names = Object.keys(given);
      if (names.length > MAX_CONTEXT_PROPERTIES) return undefined;
      const properties: Record<string, string> = {};
      for (const name of names) {
        if (name.length < 1 || name.length > MAX_PROPERTY_NAME || name === "__proto__") return undefined;
        const value = given[name];
        if (value === null) continue;
        if (isValue(value)) properties[name] = value;
        else if (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) properties[name] = String(value);
        else return undefined;
      }
      context.properties = properties;
    } else if (FIELD_NAMES.has(key)) {
      if (!isValue(given)) return undefined;
      if (key === "currentTime" && given !== "" && Number.isNaN(Date.parse(given))) return undefined;
      context[key as (typeof CONTEXT_FIELDS)[number]] = given;
    } else {
      return undefined;
    }
  }
  return context;
}
