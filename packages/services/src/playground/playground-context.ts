import { z } from "zod";
import { CONTEXT_FIELDS, type FrontendContext } from "../frontend-evaluation/frontend-context.ts";

const MAX_CONTEXT_VALUE = 1000;
const MAX_PROPERTIES = 100;
const value = z.string().max(MAX_CONTEXT_VALUE);

const SDK_FIELDS = {
  appName: value.min(1),
  currentTime: value.refine((v) => !Number.isNaN(Date.parse(v)), "must be a date (ISO-8601)").optional(),
  environment: value.optional(),
  properties: z
    .record(z.string().min(1).max(100), value)
    .refine((p) => Object.keys(p).length <= MAX_PROPERTIES, `at most ${MAX_PROPERTIES} properties`)
    .optional(),
  remoteAddress: value.optional(),
  sessionId: value.optional(),
  userId: value.optional(),
};

/**
 * Unleash's sdkContextSchema, as its playground takes it (docs/playground.md#the-request): `appName` required,
 * the SDK's fields, `properties`, and any other top-level field as text, which the SDK reads as it reads a
 * property. Limits as the frontend API's (docs/limits.md#playground).
 */
export const playgroundContextSchema = z.looseObject(SDK_FIELDS).superRefine((context, ctx) => {
  const extra = Object.entries(context).filter(([key]) => !Object.hasOwn(SDK_FIELDS, key));
  if (extra.length > MAX_PROPERTIES) {
    ctx.addIssue({ code: "custom", path: [], message: `at most ${MAX_PROPERTIES} fields besides the SDK's own` });
  }
  for (const [key, given] of extra) {
    if (typeof given !== "string" || given.length > MAX_CONTEXT_VALUE) {
      ctx.addIssue({ code: "custom", path: [key], message: `must be text of at most ${MAX_CONTEXT_VALUE} characters` });
    }
  }
});

export type PlaygroundContext = z.output<typeof playgroundContextSchema>;

/** Its top-level text fields (the SDK's and the others), and its properties, read as plain data. */
const textFields = (context: PlaygroundContext) =>
  Object.entries(context as Record<string, unknown>).filter(
    (e): e is [string, string] => e[0] !== "properties" && typeof e[1] === "string",
  );
const propertiesOf = (context: PlaygroundContext) => (context as { properties?: Record<string, string> }).properties ?? {};

const FIELDS: ReadonlySet<string> = new Set<string>(CONTEXT_FIELDS);

/**
 * The context as the evaluators read it: the SDK's fields as they are, and every other top-level
 * field among the properties, where it wins over a property of the same name, as the SDK's lookup
 * finds the top-level value first (docs/playground.md#the-request).
 */
export function evaluationContext(context: PlaygroundContext): FrontendContext {
  const out: FrontendContext = {};
  const properties: Record<string, string> = { ...propertiesOf(context) };
  for (const [key, given] of textFields(context)) {
    if (FIELDS.has(key)) out[key as (typeof CONTEXT_FIELDS)[number]] = given;
    else if (key !== "__proto__") properties[key] = given;
  }
  if (Object.keys(properties).length > 0) out.properties = properties;
  return out;
}

/**
 * The advanced playground's contexts: each top-level text value and each property split on commas,
 * every combination once, in Unleash's order (docs/playground.md#the-advanced-playground). Undefined when
 * there would be more than `limit` of them, so that a caller can refuse before any is made.
 */
export function contextCombinations(context: PlaygroundContext, limit: number): PlaygroundContext[] | undefined {
  const choices: { key: string; inProperties: boolean; values: string[] }[] = [];
  let count = 1;
  for (const [key, given] of textFields(context)) choices.push({ key, inProperties: false, values: given.split(",") });
  for (const [key, given] of Object.entries(propertiesOf(context))) choices.push({ key, inProperties: true, values: given.split(",") });
  for (const choice of choices) {
    count *= choice.values.length;
    if (count > limit) return undefined;
  }
  type Combination = { properties?: Record<string, string> } & Record<string, unknown>;
  let combinations: Combination[] = [{}];
  for (const { key, inProperties, values } of choices) {
    combinations = combinations.flatMap((partial) =>
      values.map((v) => (inProperties ? { ...partial, properties: { ...partial.properties, [key]: v } } : { ...partial, [key]: v })),
    );
  }
  return combinations as unknown as PlaygroundContext[];
}
