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
