import { createRequire } from "node:module";
import { Address4, Address6 } from "ip-address";
import { RE2JS } from "re2js";
import type { FrontendContext } from "../frontend-evaluation/frontend-context.ts";
import type { Constraint } from "../strategies/constraint.ts";
import { contextRead, contextReader } from "./context-reader.ts";
import { ConstraintStep } from "./flat-flag.ts";

/** Whether a context passes one compiled check. */
export type Check = (context: FrontendContext) => boolean;

interface SemVerValue {
  compare(other: SemVerValue): -1 | 0 | 1;
}
// The SDK compares versions with `semver` (the same version is ours); it ships no types, so it is
// required as the SDK's own modules are, with the two entries used here typed.
const { SemVer, parse: parseSemver } = createRequire(import.meta.url)("semver") as {
  SemVer: new (version: string) => SemVerValue;
  parse: (version: string) => SemVerValue | null;
};

export const NEVER: Check = () => false;

/** The SDK's `cleanValues`: empty values dropped, the rest trimmed (a value that is not text throws, there at each call). */
function cleanValues(values: unknown): string[] {
  return (values as string[]).filter((v) => !!v).map((v) => v.trim());
}

/** A check that throws what the SDK's operator throws at every call for this constraint. */
const throwing =
  (error: unknown): Check =>
  () => {
    throw error;
  };

function inCheck(c: Constraint, values: string[]): Check {
  const read = contextReader(c.contextName);
  const set = new Set(values);
  if (c.operator === "IN") return (ctx) => set.has(read(ctx) as string);
  return (ctx) => !set.has(read(ctx) as string);
}

function stringCheck(c: Constraint, raw: string[]): Check {
  const read = contextReader(c.contextName);
  const values = c.caseInsensitive ? raw.map((v) => v.toLocaleLowerCase()) : raw;
  const lower = !!c.caseInsensitive;
  const test =
    c.operator === "STR_STARTS_WITH"
      ? (s: string, v: string) => s.startsWith(v)
      : c.operator === "STR_ENDS_WITH"
        ? (s: string, v: string) => s.endsWith(v)
        : (s: string, v: string) => s.includes(v);
  return (ctx) => {
    const found = read(ctx);
    if (typeof found !== "string") return false;
    const value = lower ? found.toLocaleLowerCase() : found;
    for (const v of values) if (test(value, v)) return true;
    return false;
  };
}

function numberCheck(c: Constraint): Check {
  const read = contextReader(c.contextName);
  const target = Number(c.value);
  if (Number.isNaN(target)) return NEVER;
  const op = c.operator;
  return (ctx) => {
    const value = Number(read(ctx));
    if (Number.isNaN(value)) return false;
    if (op === "NUM_EQ") return value === target;
    if (op === "NUM_GT") return value > target;
    if (op === "NUM_GTE") return value >= target;
    if (op === "NUM_LT") return value < target;
    return value <= target;
  };
}

function dateCheck(c: Constraint): Check {
  // As the SDK: `new Date(value)` once, the context's currentTime (only at its top) or now at each call.
  const at = new Date(c.value as string).getTime();
  if (Number.isNaN(at)) return NEVER;
  const now = (ctx: FrontendContext) => (ctx.currentTime ? new Date(ctx.currentTime).getTime() : Date.now());
  return c.operator === "DATE_AFTER" ? (ctx) => now(ctx) > at : (ctx) => now(ctx) < at;
}

function semverCheck(c: Constraint): Check {
  const read = contextReader(c.contextName);
  let target: SemVerValue;
  try {
    target = new SemVer(c.value as string);
  } catch {
    // The SDK's comparison throws at every call, and it answers false.
    return NEVER;
  }
  const holds: Record<string, (order: number) => boolean> = {
    SEMVER_EQ: (o) => o === 0,
    SEMVER_LT: (o) => o < 0,
    SEMVER_GT: (o) => o > 0,
    SEMVER_LTE: (o) => o <= 0,
    SEMVER_GTE: (o) => o >= 0,
  };
  const test = holds[c.operator] as (order: number) => boolean;
  return (ctx) => {
    const value = read(ctx);
    if (!value || value.startsWith("v")) return false;
    const version = parseSemver(value);
    return version !== null && test(version.compare(target));
  };
}

// Compiling a pattern costs far more than matching it, and every snapshot compiles every flag
// again: patterns are kept across snapshots (null for one RE2 refuses), up to a bound, as the SDK's cache.
const MAX_PATTERNS = 1000;
const patterns = new Map<string, RE2JS | null>();

function compiledPattern(value: string, caseInsensitive: boolean): RE2JS | null {
  const key = `${caseInsensitive ? "1" : "0"}:${value}`;
  let regex = patterns.get(key);
  if (regex === undefined) {
    try {
      regex = RE2JS.compile(value, caseInsensitive ? RE2JS.CASE_INSENSITIVE : undefined);
    } catch {
      regex = null;
    }
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    patterns.set(key, regex);
  }
  return regex;
}

function regexCheck(c: Constraint): Check {
  const read = contextReader(c.contextName);
  const regex = compiledPattern(c.value as string, !!c.caseInsensitive);
  if (!regex) return NEVER;
  return (ctx) => {
    const value = read(ctx);
    if (typeof value !== "string") return false;
    try {
      return regex.matcher(value).find();
    } catch {
      return false;
    }
  };
}

function cidrCheck(c: Constraint, values: string[]): Check {
  const read = contextReader(c.contextName);
  const v4 = values.filter((r) => Address4.isValid(r)).map((r) => new Address4(r));
  const v6 = values.filter((r) => Address6.isValid(r)).map((r) => new Address6(r));
  const forms4 = v4.map((r) => r.correctForm());
  const forms6 = v6.map((r) => r.correctForm());
  return (ctx) => {
    const value = read(ctx);
    if (typeof value !== "string") return false;
    if (Address4.isValid(value)) {
      const address = new Address4(value);
      const form = address.correctForm();
      return v4.some((range, i) => form === forms4[i] || address.isInSubnet(range));
    }
    if (Address6.isValid(value)) {
      const address = new Address6(value);
      const form = address.correctForm();
      return v6.some((range, i) => form === forms6[i] || address.isInSubnet(range));
    }
    return false;
  };
}

function operatorCheck(c: Constraint): Check | undefined {
  switch (c.operator) {
    case "IN":
    case "NOT_IN":
    case "STR_STARTS_WITH":
    case "STR_ENDS_WITH":
    case "STR_CONTAINS":
    case "IN_CIDR": {
      let values: string[];
      try {
        values = cleanValues(c.values);
      } catch (error) {
        return throwing(error);
      }
      if (c.operator === "IN" || c.operator === "NOT_IN") return inCheck(c, values);
      return c.operator === "IN_CIDR" ? cidrCheck(c, values) : stringCheck(c, values);
    }
    case "NUM_EQ":
    case "NUM_GT":
    case "NUM_GTE":
    case "NUM_LT":
    case "NUM_LTE":
      return numberCheck(c);
    case "DATE_AFTER":
    case "DATE_BEFORE":
      return dateCheck(c);
    case "SEMVER_EQ":
    case "SEMVER_GT":
    case "SEMVER_LT":
    case "SEMVER_GTE":
    case "SEMVER_LTE":
      return semverCheck(c);
    case "REGEX":
      return regexCheck(c);
    default:
      return undefined;
  }
}

/**
 * One constraint compiled once per snapshot (docs/evaluation.md#constraints): its values parsed
 * and its operator chosen here, so a call reads the context value and compares. As the SDK: a
 * missing constraint (a segment that does not exist) and an operator it does not know are false,
 * inverted or not; `inverted` negates every other answer.
 */
export function compileConstraint(c: Constraint | undefined | null): Check {
  if (!c) return NEVER;
  const check = operatorCheck(c);
  if (!check) return NEVER;
  return c.inverted ? (ctx) => !check(ctx) : check;
}

/** The constraint for the flat loop (docs/evaluation.md#the-flat-loop): an IN or NOT_IN as data, any other as its check. */
export function constraintStep(c: Constraint | undefined | null): ConstraintStep {
  const read = c && (c.operator === "IN" || c.operator === "NOT_IN") ? contextRead(c.contextName) : undefined;
  if (!c || !read) return new ConstraintStep(compileConstraint(c), undefined, undefined, false);
  let values: string[];
  try {
    values = cleanValues(c.values);
  } catch {
    return new ConstraintStep(compileConstraint(c), undefined, undefined, false);
  }
  // IN holds when the value is listed, NOT_IN when it is not; inverted, the other way round.
  return new ConstraintStep(undefined, read, new Set(values), (c.operator === "IN") !== !!c.inverted);
}
