import { hostname } from "node:os";
import type { ClientFeature, ClientFeatureSet, ClientSegment, ClientStrategy } from "../../src/client-features/client-feature.ts";
import type { FrontendContext } from "../../src/frontend-evaluation/frontend-context.ts";
import { CONSTRAINT_OPERATORS, type Constraint } from "../../src/strategies/constraint.ts";

// A seeded generator of snapshots and contexts for the evaluators' differential test
// (docs/evaluation.md#the-differential-test): small pools of names and values, so that constraints,
// rollouts, overrides and dependencies match as often as they miss, with the edge cases the SDK
// has rules for (empty and padded values, invalid numbers, dates, versions, patterns and ranges,
// unknown operators and strategies, missing segments and parents, zero weights).

/** mulberry32: a small seeded generator of floats in [0, 1). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
const chance = (r: Random, p: number) => r() < p;
const some = <T>(r: Random, max: number, make: () => T): T[] => Array.from({ length: Math.floor(r() * (max + 1)) }, make);

const USERS = ["u1", "u2", "u3", "u17", "alice", "Alice", "bob", "carol", "dave", "u1 ", "jürgen", "用户7", "😊x"];
const SESSIONS = ["s1", "s2", "s42", "session-x"];
const ADDRESSES = ["10.1.2.3", "10.200.0.1", "192.168.1.5", "192.168.2.1", "127.0.0.1", "::1", "2001:db8::1", "2001:db9::1", "not-an-ip"];
const NAMES = [
  "userId",
  "sessionId",
  "remoteAddress",
  "appName",
  "environment",
  "currentTime",
  "plan",
  "version",
  "score",
  "email",
  "tenant",
  "ip",
  "region",
  "toString",
  "properties",
  "",
];
const PROPERTY_VALUES: Record<string, readonly string[]> = {
  plan: ["pro", "team", "free", "PRO", " pro", ""],
  version: ["1.2.3", "1.10.0", "2.0.0-beta.1", "2.0.0", "v1.2.3", "1.2", "1.2.3+build.5", "01.2.3", ""],
  score: ["1", "2.5", "-3", "10", "abc", "", "1e3", " 7 "],
  email: ["a@example.com", "B@Example.COM", "x@test.org", "nobody"],
  tenant: ["t1", "t2", "t3", "acme"],
  ip: ADDRESSES,
  region: ["eu", "us", "EU"],
  userId: USERS,
  sessionId: SESSIONS,
  appName: ["web", "mobile"],
  "": ["empty-name"],
};
const YEARS = [2019, 2022, 2025, 2028, 2031];
const iso = (year: number, month = 1) => `${year}-${String(month).padStart(2, "0")}-15T12:00:00.000Z`;

function values(r: Random, operator: string): string[] | undefined {
  switch (operator) {
    case "IN":
    case "NOT_IN":
      return some(r, 4, () => pick(r, [...USERS, "pro", "team", " pro ", "", "t1", "eu", "web", "1", "2.5", "[object Object]"]));
    case "STR_CONTAINS":
    case "STR_STARTS_WITH":
    case "STR_ENDS_WITH":
      return some(r, 3, () => pick(r, ["u", "1", "PRO", " pro ", "al", "example.com", "", "  ", "@", "t"]));
    case "IN_CIDR":
      return some(r, 3, () =>
        pick(r, ["10.0.0.0/8", "192.168.1.0/24", "192.168.1.5", "::1/128", "2001:db8::/32", "127.invalid", "0.0.0.0/0"]),
      );
    default:
      return chance(r, 0.2) ? ["x"] : undefined;
  }
}

function value(r: Random, operator: string): string | undefined {
  if (operator.startsWith("NUM_")) return pick(r, ["1", "2.5", "-3", "10", "abc", "0", "1000"]);
  if (operator.startsWith("DATE_")) return chance(r, 0.1) ? "not a date" : iso(pick(r, YEARS), 1 + Math.floor(r() * 12));
  if (operator.startsWith("SEMVER_"))
    return pick(r, ["1.2.3", "1.10.0", "2.0.0", "2.0.0-beta.1", "2.0.0-beta.2", "v1.0.0", "not.a.version"]);
  if (operator === "REGEX") return pick(r, ["^u\\d+$", "pro|team", "(bad", "^A", "example\\.com$", "(?i)BOB", "", "\\d"]);
  return chance(r, 0.2) ? "x" : undefined;
}

function constraint(r: Random): Constraint {
  const operator = (chance(r, 0.02) ? "NOT_A_VALID_OPERATOR" : pick(r, CONSTRAINT_OPERATORS)) as Constraint["operator"];
  const contextName = operator.startsWith("DATE_")
    ? "currentTime"
    : operator === "IN_CIDR" && chance(r, 0.6)
      ? "remoteAddress"
      : pick(r, NAMES);
  const list = values(r, operator);
  const single = value(r, operator);
  return {
    contextName,
    operator,
    ...(list !== undefined ? { values: list } : {}),
    ...(single !== undefined ? { value: single } : {}),
    inverted: chance(r, 0.25),
    caseInsensitive: chance(r, 0.3),
  };
}

const STICKINESS = ["default", "random", "userId", "sessionId", "tenant", "plan", "remoteAddress", "toString"];

function variant(r: Random, i: number, withOverrides: boolean) {
  const overrides =
    withOverrides && chance(r, 0.3)
      ? [{ contextName: pick(r, NAMES), values: some(r, 3, () => pick(r, [...USERS, "t1", "pro", "eu"])) }]
      : [];
  const payload = chance(r, 0.5)
    ? { payload: { type: pick(r, ["string", "json", "csv", "number"] as const), value: `payload-${i}-${Math.floor(r() * 10)}` } }
    : {};
  return {
    name: pick(r, [`v${i}`, "control", "treatment", "disabled"]),
    weight: pick(r, [0, 1, 50, 333, 334, 500, 1000]),
    weightType: "variable" as const,
    stickiness: pick(r, STICKINESS),
    ...payload,
    overrides,
  };
}

function parameters(r: Random, name: string): Record<string, string> {
  const group: Record<string, string> = chance(r, 0.8) ? { groupId: pick(r, ["g1", "g2", "flag-group", "ab"]) } : {};
  const percentage = () => pick(r, ["0", "1", "10", "33", "50", "99", "100", "abc"]);
  switch (name) {
    case "userWithId":
      return { userIds: pick(r, ["u1,u2", "alice, bob ,carol", "", "u17", "Alice"]) };
    case "gradualRolloutUserId":
    case "gradualRolloutSessionId":
    case "gradualRolloutRandom":
      return { percentage: percentage(), ...group };
    case "remoteAddress":
      return { IPs: pick(r, ["10.0.0.0/8, 192.168.1.5", "127.0.0.1", "192.168.1.0/24,bad", "", "::1", "10.1.2.3,,x"]) };
    case "flexibleRollout": {
      const stickiness: Record<string, string> = chance(r, 0.85) ? { stickiness: pick(r, STICKINESS) } : {};
      return { rollout: percentage(), ...stickiness, ...group };
    }
    case "applicationHostname":
      return { hostNames: pick(r, ["localhost", `other, ${hostname()}`, ""]) };
    default:
      return chance(r, 0.3) ? group : {};
  }
}

const STRATEGIES = [
  "default",
  "userWithId",
  "gradualRolloutUserId",
  "gradualRolloutSessionId",
  "gradualRolloutRandom",
  "remoteAddress",
  "flexibleRollout",
  "flexibleRollout",
  "applicationHostname",
  "myOwnStrategy",
];

function strategy(r: Random, i: number, segmentIds: number[]): ClientStrategy {
  const name = pick(r, STRATEGIES);
  return {
    id: `s${i}`,
    name,
    sortOrder: i,
    constraints: some(r, 3, () => constraint(r)),
    parameters: parameters(r, name),
    variants: chance(r, 0.3) ? some(r, 3, () => variant(r, i, false)).map(({ overrides: _, ...v }) => v) : [],
    segments: chance(r, 0.25) ? some(r, 2, () => (chance(r, 0.1) ? 999 : pick(r, segmentIds))) : [],
  };
}

/** A snapshot of `count` flags (with parents among them) and a few segments. */
export function generatedSet(r: Random, count: number): ClientFeatureSet {
  const segments: ClientSegment[] = [1, 2, 3, 4].map((id) => ({ id, name: `seg${id}`, constraints: some(r, 2, () => constraint(r)) }));
  const names = Array.from({ length: count }, (_, i) => `flag-${i}`);
  const features: ClientFeature[] = names.map((name, i) => ({
    name,
    type: "release",
    description: null,
    project: "default",
    enabled: chance(r, 0.85),
    stale: false,
    impressionData: chance(r, 0.2),
    strategies: some(r, 3, () => strategy(r, i, [1, 2, 3, 4])),
    variants: chance(r, 0.5) ? some(r, 4, () => variant(r, i, true)) : [],
    ...(chance(r, 0.2)
      ? {
          dependencies: some(r, 2, () => ({
            feature: chance(r, 0.1) ? "ghost" : pick(r, names),
            enabled: chance(r, 0.75),
            variants: chance(r, 0.3) ? some(r, 2, () => pick(r, ["control", "treatment", "v1", "disabled"])) : [],
          })),
        }
      : {}),
  }));
  return { environment: "development", features, segments, revisionId: 1 };
}

/** A context as the frontend API passes it on (empty fields possible, properties as text). */
export function generatedContext(r: Random): FrontendContext {
  const properties: Record<string, string> = {};
  for (const name of Object.keys(PROPERTY_VALUES)) if (chance(r, 0.45)) properties[name] = pick(r, PROPERTY_VALUES[name] as string[]);
  return {
    ...(chance(r, 0.7) ? { userId: pick(r, [...USERS, ""]) } : {}),
    ...(chance(r, 0.5) ? { sessionId: pick(r, [...SESSIONS, ""]) } : {}),
    ...(chance(r, 0.5) ? { remoteAddress: pick(r, [...ADDRESSES, ""]) } : {}),
    ...(chance(r, 0.3) ? { appName: pick(r, ["web", "frontend-api", ""]) } : {}),
    ...(chance(r, 0.2) ? { environment: pick(r, ["production", "default"]) } : {}),
    ...(chance(r, 0.7) ? { currentTime: iso(pick(r, YEARS) + pick(r, [-1, 0, 1]), 1 + Math.floor(r() * 12)) } : {}),
    ...(chance(r, 0.85) ? { properties } : {}),
  };
}
