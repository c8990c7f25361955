import { isIP } from "node:net";
import { RE2JS } from "re2js";
import { z } from "zod";

/** Every operator of @unleash/client-specification 6.1. */
export const CONSTRAINT_OPERATORS = [
  "IN",
  "NOT_IN",
  "STR_CONTAINS",
  "STR_STARTS_WITH",
  "STR_ENDS_WITH",
  "NUM_EQ",
  "NUM_GT",
  "NUM_GTE",
  "NUM_LT",
  "NUM_LTE",
  "DATE_AFTER",
  "DATE_BEFORE",
  "SEMVER_EQ",
  "SEMVER_GT",
  "SEMVER_LT",
  "SEMVER_GTE",
  "SEMVER_LTE",
  "REGEX",
  "IN_CIDR",
] as const;
type ConstraintOperator = (typeof CONSTRAINT_OPERATORS)[number];

export interface Constraint {
  contextName: string;
  operator: ConstraintOperator;
  values?: string[];
  value?: string;
  inverted: boolean;
  caseInsensitive: boolean;
}

const MULTI_VALUE = new Set<ConstraintOperator>(["IN", "NOT_IN", "STR_CONTAINS", "STR_STARTS_WITH", "STR_ENDS_WITH", "IN_CIDR"]);
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
// RFC 3339 as SDKs parse it: a date, a time, and a zone.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
// semver.org's own pattern: no "v" prefix, no leading zeros.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

function isCidr(value: string): boolean {
  const [address, prefix, ...rest] = value.split("/");
  const family = isIP(address ?? "");
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

// The SDKs evaluate patterns with RE2 (the Node SDK through re2js): what RE2 cannot compile
// (lookaround, back-references) never matches there, so it is refused here.
function compilesAsRe2(pattern: string, caseInsensitive: boolean): boolean {
  try {
    RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
    return true;
  } catch {
    return false;
  }
}

/** Why a single value cannot mean anything for the operator, or null when it can. */
function singleValueProblem(operator: ConstraintOperator, value: string, caseInsensitive: boolean): string | null {
  if (operator.startsWith("NUM_")) return JSON_NUMBER.test(value) ? null : "must be a number";
  if (operator.startsWith("DATE_"))
    return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)) ? null : "must be an ISO 8601 date and time";
  if (operator.startsWith("SEMVER_")) return SEMVER.test(value) ? null : "must be a semantic version (1.2.3)";
  if (operator === "REGEX") return compilesAsRe2(value, caseInsensitive) ? null : "must be a regular expression that RE2 compiles";
  return null;
}

/** One constraint as a client writes it; each value is checked against what its operator can use. */
export const constraintInputSchema = z
  .strictObject({
    contextName: z.string().min(1).max(100),
    operator: z.enum(CONSTRAINT_OPERATORS),
    values: z.array(z.string().max(1000)).max(1000).optional(),
    value: z.string().max(1000).optional(),
    inverted: z.boolean().default(false),
    caseInsensitive: z.boolean().default(false),
  })
  .superRefine((c, ctx) => {
    if (MULTI_VALUE.has(c.operator)) {
      if (c.values === undefined) ctx.addIssue({ code: "custom", path: ["values"], message: `is required for ${c.operator}` });
      if (c.operator === "IN_CIDR") {
        c.values?.forEach((v, i) => {
          if (!isCidr(v)) ctx.addIssue({ code: "custom", path: ["values", i], message: "must be an IP address or a CIDR range" });
        });
      }
      return;
    }
    if (c.value === undefined) {
      ctx.addIssue({ code: "custom", path: ["value"], message: `is required for ${c.operator}` });
      return;
    }
    const problem = singleValueProblem(c.operator, c.value, c.caseInsensitive);
    if (problem) ctx.addIssue({ code: "custom", path: ["value"], message: `${problem} for ${c.operator}` });
  })
  .meta({ id: "ConstraintInput" });

export const constraintsInputSchema = z.array(constraintInputSchema).max(100);

/** The one place where stored JSON becomes constraints, in the key order SDKs are sent. */
export function constraintsFromJson(json: unknown): Constraint[] {
  if (!Array.isArray(json)) return [];
  return (json as Constraint[]).map((c) => ({
    contextName: c.contextName,
    operator: c.operator,
    ...(c.values !== undefined ? { values: c.values } : {}),
    ...(c.value !== undefined ? { value: c.value } : {}),
    inverted: c.inverted ?? false,
    caseInsensitive: c.caseInsensitive ?? false,
  }));
}
