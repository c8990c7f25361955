import { z } from "zod";

// The query of GET /api/admin/search/features in Unleash's syntax: a filter is `OPERATOR:value,value`
// (docs/search.md#filters). Unleash ignores what it cannot read, or fails with a 500; here every
// parameter that cannot mean anything is a 400 naming it.

/** Operators of the single-valued filters (project, type, state, lifecycle, createdBy). */
const LIST_OPERATORS = ["IS", "IS_NOT", "IS_ANY_OF", "IS_NONE_OF"] as const;
/** Operators of the filters on what a flag carries (tags, segments). */
const SET_OPERATORS = ["INCLUDE", "DO_NOT_INCLUDE", "INCLUDE_ALL_OF", "INCLUDE_ANY_OF", "EXCLUDE_IF_ANY_OF", "EXCLUDE_ALL"] as const;
const DATE_OPERATORS = ["IS_BEFORE", "IS_ON_OR_AFTER"] as const;

const FEATURE_STATES = ["active", "stale", "potentially-stale"] as const;
export const LIFECYCLE_STAGES = ["initial", "pre-live", "live", "completed", "archived"] as const;
const SORT_FIELDS = ["createdAt", "name", "type", "stale", "project", "lastSeenAt"] as const;

/** Values of a filter, and whether a flag must match one of them (IS, IS_ANY_OF) or none (IS_NOT, IS_NONE_OF). */
export interface ListFilter<T> {
  include: boolean;
  values: T[];
}

/** Which of the values a flag must carry: any, none, all, or not all of them. */
export interface SetFilter<T> {
  mode: "any" | "none" | "all" | "not-all";
  values: T[];
}

/** A day, compared from its start in UTC: before it, or on or after it. */
interface DateFilter {
  before: boolean;
  day: Date;
}

export type FeatureSort = { field: (typeof SORT_FIELDS)[number] } | { field: "environment"; environment: string };

/** Most values a filter lists, and most terms a query has: each is a condition of the database query. */
const MAX_VALUES = 100;
const MAX_TEXT = 1000;

const SET_MODES: Record<(typeof SET_OPERATORS)[number], SetFilter<unknown>["mode"]> = {
  INCLUDE: "any",
  INCLUDE_ANY_OF: "any",
  DO_NOT_INCLUDE: "none",
  EXCLUDE_IF_ANY_OF: "none",
  INCLUDE_ALL_OF: "all",
  EXCLUDE_ALL: "not-all",
};

/** `OPERATOR:a,b` split into its operator and its values (trimmed, empty ones dropped, repeats once). */
function operatorAndValues(
  raw: string,
  operators: readonly string[],
  ctx: z.RefinementCtx,
): { operator: string; values: string[] } | undefined {
  const colon = raw.indexOf(":");
  const operator = colon === -1 ? "" : raw.slice(0, colon);
  if (!operators.includes(operator)) {
    ctx.addIssue({ code: "custom", message: `must be OPERATOR:value with an operator of ${operators.join(", ")}` });
    return undefined;
  }
  const values = [
    ...new Set(
      raw
        .slice(colon + 1)
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
  if (values.length === 0 || values.length > MAX_VALUES) {
    ctx.addIssue({ code: "custom", message: `must list 1 to ${MAX_VALUES} values after "${operator}:"` });
    return undefined;
  }
  return { operator, values };
}

/** A parameter in the query string: text of at most MAX_TEXT characters (of a pattern, when given), documented as Unleash documents it. */
const text = (description: string, example: string, pattern?: { regex: RegExp; message: string }) =>
  (pattern ? z.string().max(MAX_TEXT).regex(pattern.regex, pattern.message) : z.string().max(MAX_TEXT)).meta({ description, example });

/** A filter parameter: its operator among `operators` and its values, each read by `value` (a 400 naming the first it cannot read). */
function operatorFilter<T, R>(
  description: string,
  example: string,
  operators: readonly string[],
  value: (v: string) => T | undefined,
  what: string,
  result: (operator: string, values: T[]) => R,
) {
  return text(`${description} Operators: ${operators.join(", ")}.`, example).transform((raw, ctx): R => {
    const parsed = operatorAndValues(raw, operators, ctx);
    if (!parsed) return z.NEVER;
    const values: T[] = [];
    for (const v of parsed.values) {
      const known = value(v);
      if (known === undefined) {
        ctx.addIssue({ code: "custom", message: `"${v}" is not ${what}` });
        return z.NEVER;
      }
      values.push(known);
    }
    return result(parsed.operator, values);
  });
}

function listFilter<T extends string | number>(description: string, example: string, value: (v: string) => T | undefined, what: string) {
  return operatorFilter(
    description,
    example,
    LIST_OPERATORS,
    value,
    what,
    (operator, values): ListFilter<T> => ({
      include: operator === "IS" || operator === "IS_ANY_OF",
      values,
    }),
  );
}

function setFilter<T>(description: string, example: string, value: (v: string) => T | undefined, what: string) {
  return operatorFilter(
    description,
    example,
    SET_OPERATORS,
    value,
    what,
    (operator, values): SetFilter<T> => ({
      mode: SET_MODES[operator as (typeof SET_OPERATORS)[number]],
      values,
    }),
  );
}

function dateFilter(description: string) {
  return text(
    `${description} Operators: ${DATE_OPERATORS.join(", ")}; the day is YYYY-MM-DD, from its start in UTC.`,
    "IS_ON_OR_AFTER:2026-01-28",
    {
      regex: /^(IS_BEFORE|IS_ON_OR_AFTER):\d{4}-\d{2}-\d{2}$/,
      message: "must be IS_BEFORE:YYYY-MM-DD or IS_ON_OR_AFTER:YYYY-MM-DD",
    },
  ).transform((raw, ctx): DateFilter => {
    const [operator, date] = raw.split(":") as [string, string];
    const day = new Date(`${date}T00:00:00Z`);
    // 2026-02-30 parses as March 2nd: a day that does not exist is refused, not moved.
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) {
      ctx.addIssue({ code: "custom", message: `${date} is not a day of the calendar` });
      return z.NEVER;
    }
    return { before: operator === "IS_BEFORE", day };
  });
}

const oneOf =
  <T extends string>(allowed: readonly T[]) =>
  (v: string) =>
    (allowed as readonly string[]).includes(v) ? (v as T) : undefined;

/** A tag as `type:value` (the value may hold colons). */
function tagOf(v: string): { type: string; value: string } | undefined {
  const colon = v.indexOf(":");
  if (colon <= 0 || colon === v.length - 1) return undefined;
  return { type: v.slice(0, colon).trim(), value: v.slice(colon + 1).trim() };
}

/** A whole number from the query (text) or a typed client (a number), documented as the integer it is. */
function wholeNumber(description: string, min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .union([
      z.number(),
      z
        .string()
        .regex(/^[0-9]{1,10}$/, message)
        .transform(Number),
    ])
    .pipe(z.number().refine((n) => Number.isInteger(n) && n >= min && n <= max, message))
    .meta({
      description: `${description}, an integer from ${min} to ${max}`,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        delete jsonSchema.anyOf;
        Object.assign(jsonSchema, { type: "integer", minimum: min, maximum: max });
      },
    });
}

export const SEARCH_LIMIT_DEFAULT = 50;
const SEARCH_LIMIT_MAX = 100;
const OFFSET_MAX = 2_147_483_647;

export const featureSearchQuerySchema = z
  .object({
    query: text(
      "Flags whose name, description or a tag's value contains this text, ignoring case; several texts separated by commas match any of them.",
      "checkout",
    )
      .transform((raw, ctx) => {
        const terms = [
          ...new Set(
            raw
              .split(",")
              .map((t) => t.trim())
              .filter(Boolean),
          ),
        ];
        if (terms.length > MAX_VALUES) ctx.addIssue({ code: "custom", message: `must have at most ${MAX_VALUES} comma-separated terms` });
        return terms;
      })
      .optional(),
    project: listFilter("Projects, by id.", "IS:default", (v) => v, "a project id").optional(),
    type: listFilter("Flag types.", "IS:release", (v) => v, "a type").optional(),
    state: listFilter(
      `The flag's state: ${FEATURE_STATES.join(", ")} (active: not stale; potentially stale flags are active too).`,
      "IS:stale",
      oneOf(FEATURE_STATES),
      `a state (${FEATURE_STATES.join(", ")})`,
    ).optional(),
    lifecycle: listFilter(
      `The flag's current lifecycle stage: ${LIFECYCLE_STAGES.join(", ")}.`,
      "IS:live",
      oneOf(LIFECYCLE_STAGES),
      `a lifecycle stage (${LIFECYCLE_STAGES.join(", ")})`,
    ).optional(),
    createdBy: listFilter(
      "Who created the flag, by user id.",
      "IS:1",
      (v) => (/^[0-9]{1,10}$/.test(v) && Number(v) <= OFFSET_MAX ? Number(v) : undefined),
      "a user id",
    ).optional(),
    tag: setFilter("Tags the flag carries, each as type:value.", "INCLUDE:simple:my-tag", tagOf, "a tag (type:value)").optional(),
    segment: setFilter("Segments the flag's strategies use, by name.", "INCLUDE:pro-users", (v) => v, "a segment name").optional(),
    status: z
      .union([z.string().max(MAX_TEXT), z.array(z.string().max(MAX_TEXT)).max(MAX_VALUES)])
      .meta({
        description:
          "Flags on or off in an environment, as environment:enabled or environment:disabled; repeated, a flag matching any of them.",
        example: "production:enabled",
      })
      .transform((raw, ctx) => {
        const statuses: { environment: string; enabled: boolean }[] = [];
        for (const entry of Array.isArray(raw) ? raw : [raw]) {
          const match = /^(.+):(enabled|disabled)$/.exec(entry);
          if (!match) {
            ctx.addIssue({ code: "custom", message: `"${entry}" is not environment:enabled or environment:disabled` });
            return z.NEVER;
          }
          statuses.push({ environment: match[1] as string, enabled: match[2] === "enabled" });
        }
        return statuses;
      })
      .optional(),
    createdAt: dateFilter("When the flag was created.").optional(),
    lastSeenAt: dateFilter("When an SDK last reported the flag; flags never seen match neither operator.").optional(),
    archived: text("IS:true for archived flags only; otherwise only flags that are not archived.", "IS:true", {
      regex: /^IS:(true|false)$/,
      message: "must be IS:true or IS:false",
    })
      .transform((raw) => raw === "IS:true")
      .optional(),
    favorite: text("Flags the caller marked as favourites (Vexil has none: IS:true matches nothing).", "IS:true", {
      regex: /^(IS|IS_ANY_OF):(true|false)(,(true|false))*$/,
      message: "must be IS:true, IS:false or IS_ANY_OF:true,false",
    })
      .transform((raw) => [...new Set(raw.slice(raw.indexOf(":") + 1).split(","))].map((v) => v === "true"))
      .optional(),
    favoritesFirst: z.enum(["true", "false"]).optional().meta({ description: "Favourites first (Vexil has none, so it changes nothing)." }),
    sortBy: text(`The sort: ${SORT_FIELDS.join(", ")} or environment:<name> (on there first, or last); default createdAt.`, "name")
      .transform((raw, ctx): FeatureSort => {
        if ((SORT_FIELDS as readonly string[]).includes(raw)) return { field: raw as (typeof SORT_FIELDS)[number] };
        if (raw.startsWith("environment:") && raw.length > "environment:".length)
          return { field: "environment", environment: raw.slice("environment:".length) };
        ctx.addIssue({ code: "custom", message: `must be one of ${SORT_FIELDS.join(", ")} or environment:<name>` });
        return z.NEVER;
      })
      .optional(),
    sortOrder: z.enum(["asc", "desc"]).optional().meta({ description: "asc (default) or desc" }),
    offset: wholeNumber("Flags to skip (default 0)", 0, OFFSET_MAX).optional(),
    limit: wholeNumber(`Flags in the page (default ${SEARCH_LIMIT_DEFAULT})`, 1, SEARCH_LIMIT_MAX).optional(),
  })
  .optional();

export type FeatureSearchQuery = z.output<typeof featureSearchQuerySchema>;
