import { RE2JS } from "re2js";

// No import from the app: apps/server's test of this file loads it in Node. constraint-draft.ts
// converts to and from the API's input types, so an operator added or dropped there fails `tsc` here.

/** A constraint as the API takes it (ConstraintInput), as far as its values are checked. */
interface ConstraintInput {
  contextName: string;
  operator: Operator;
  values?: string[];
  value?: string;
  inverted?: boolean;
  caseInsensitive?: boolean;
}

/** What kind of value each operator takes, for every operator of the API (packages/services/src/strategies/constraint.ts). */
const OPERATOR_KINDS = {
  IN: "list",
  NOT_IN: "list",
  STR_CONTAINS: "list",
  STR_STARTS_WITH: "list",
  STR_ENDS_WITH: "list",
  IN_CIDR: "cidr",
  NUM_EQ: "number",
  NUM_GT: "number",
  NUM_GTE: "number",
  NUM_LT: "number",
  NUM_LTE: "number",
  DATE_AFTER: "date",
  DATE_BEFORE: "date",
  SEMVER_EQ: "semver",
  SEMVER_GT: "semver",
  SEMVER_GTE: "semver",
  SEMVER_LT: "semver",
  SEMVER_LTE: "semver",
  REGEX: "regex",
} as const satisfies Record<string, "list" | "cidr" | "number" | "date" | "semver" | "regex">;
export type Operator = keyof typeof OPERATOR_KINDS;
export const OPERATORS = Object.keys(OPERATOR_KINDS) as Operator[];
export const operatorKind = (operator: Operator): string => OPERATOR_KINDS[operator];
/** IN, NOT_IN, STR_* and IN_CIDR take `values`; the others one `value` (docs/flag-model.md#constraints). */
export const takesValues = (operator: Operator) => OPERATOR_KINDS[operator] === "list" || OPERATOR_KINDS[operator] === "cidr";
/** The SDKs compare case-insensitively only for the STR_* operators and REGEX's flag. */
export const usesCase = (operator: Operator) => operator.startsWith("STR_") || operator === "REGEX";

// The API's own checks (packages/services/src/strategies/constraint.ts), mirrored for the browser,
// which has no node:net (patterns compile with the same re2js, which only the editors' lazily
// loaded chunks carry); apps/server/test/console-constraint-values.test.ts holds both to the same
// answers.
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function ipFamily(address: string): 0 | 4 | 6 {
  if (IPV4.test(address)) return 4;
  if (!address.includes(":")) return 0;
  try {
    // The URL parser accepts exactly the IPv6 literals between brackets.
    new URL(`http://[${address}]/`);
    return 6;
  } catch {
    return 0;
  }
}

function isCidr(value: string): boolean {
  const [address, prefix, ...rest] = value.split("/");
  const family = ipFamily(address ?? "");
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function compilesAsRe2(pattern: string, caseInsensitive: boolean): boolean {
  try {
    RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
    return true;
  } catch {
    return false;
  }
}

/** Why a single value cannot mean anything for the operator (as the API says it), or null. */
function valueProblem(operator: Operator, value: string, caseInsensitive: boolean): string | null {
  if (value.length > 1000) return "at most 1000 characters";
  switch (OPERATOR_KINDS[operator]) {
    case "number":
      return JSON_NUMBER.test(value) ? null : `must be a number for ${operator}`;
    case "date":
      return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)) ? null : `must be an ISO 8601 date and time for ${operator}`;
    case "semver":
      return SEMVER.test(value) ? null : `must be a semantic version (1.2.3) for ${operator}`;
    case "regex":
      return compilesAsRe2(value, caseInsensitive) ? null : `must be a regular expression that RE2 compiles for ${operator}`;
    case "cidr":
      return isCidr(value) ? null : "must be an IP address or a CIDR range";
    default:
      return null;
  }
}

/** A constraint's problems by field (contextName, values, value), as the API would refuse it. */
export function constraintProblems(c: ConstraintInput): Partial<Record<"contextName" | "values" | "value", string>> {
  const problems: Partial<Record<"contextName" | "values" | "value", string>> = {};
  if (c.contextName.length < 1 || c.contextName.length > 100) problems.contextName = "1-100 characters";
  if (takesValues(c.operator)) {
    const values = c.values ?? [];
    if (values.length > 1000) problems.values = "at most 1000 values";
    const bad = values.map((v) => [v, valueProblem(c.operator, v, c.caseInsensitive ?? false)] as const).find(([, p]) => p);
    if (bad) problems.values = `"${bad[0]}" ${bad[1]}`;
  } else {
    const problem = valueProblem(c.operator, c.value ?? "", c.caseInsensitive ?? false);
    if (problem) problems.value = problem;
  }
  return problems;
}
