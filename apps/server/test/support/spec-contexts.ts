import type { Context } from "unleash-client";
import type { SpecFile } from "./specification-files.ts";

/** The context fields the SDKs know by name; every other field is a property. */
const STANDARD_FIELDS = new Set(["userId", "sessionId", "remoteAddress", "environment", "appName", "currentTime"]);

type Values = Map<string, Set<string | null>>;

/** A seeded PRNG (mulberry32), so that a difference is found again on the next run. */
export function seededRandom(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Constraint {
  contextName: string;
  values?: string[];
  value?: string;
}

/**
 * Every value a file names for each context field: its constraints' and segments' values, its
 * strategies' user ids, addresses and custom stickiness fields, its variants' overrides, and the
 * contexts of its cases.
 */
function valuesOf(file: SpecFile): Values {
  const values: Values = new Map();
  const add = (field: string, value: string | null | undefined) => {
    if (value === undefined) return;
    if (!values.has(field)) values.set(field, new Set());
    values.get(field)?.add(value);
  };
  const constraints = (list: unknown[] | undefined) => {
    for (const c of (list ?? []) as Constraint[]) {
      add(c.contextName, c.value);
      for (const v of c.values ?? []) add(c.contextName, v);
    }
  };
  const variants = (list: { stickiness?: string; overrides?: unknown[] }[] | undefined) => {
    for (const v of list ?? []) {
      if (v.stickiness && v.stickiness !== "default" && v.stickiness !== "random") add(v.stickiness, "1");
      for (const o of (v.overrides ?? []) as Constraint[]) for (const value of o.values ?? []) add(o.contextName, value);
    }
  };
  for (const segment of file.state.segments ?? []) constraints(segment.constraints);
  for (const feature of file.state.features) {
    variants(feature.variants);
    for (const strategy of feature.strategies ?? []) {
      constraints(strategy.constraints);
      variants(strategy.variants);
      const p = strategy.parameters ?? {};
      for (const id of (p.userIds ?? "").split(",")) add("userId", id.trim() || undefined);
      for (const ip of (p.IPs ?? "").split(",")) add("remoteAddress", ip.trim().split("/")[0] || undefined);
      if (p.stickiness && !["default", "random"].includes(p.stickiness)) add(p.stickiness, "1");
    }
  }
  for (const c of [...(file.tests ?? []), ...(file.variantTests ?? [])]) {
    for (const [field, value] of Object.entries(c.context)) {
      if (field === "properties") {
        for (const [name, v] of Object.entries((value ?? {}) as Record<string, unknown>)) add(name, v === null ? null : String(v));
      } else add(field, value === null ? null : String(value));
    }
  }
  return values;
}

/** A value near `value`: the same in another case, a number or a date a little off, or something else. */
function nearby(value: string | null, random: () => number): string | null {
  if (value === null) return random() < 0.5 ? null : "";
  const r = random();
  const n = Number(value);
  if (value.trim() !== "" && Number.isFinite(n)) return String(n + Math.round(r * 4 - 2) / 2);
  const time = Date.parse(value);
  if (/^\d{4}-\d\d-\d\d/.test(value) && Number.isFinite(time)) {
    return new Date(time + Math.round((r - 0.5) * 4 * 86_400_000)).toISOString();
  }
  if (r < 0.25) return value.toUpperCase();
  if (r < 0.5) return value.toLowerCase();
  if (r < 0.75) return `${value}${Math.floor(random() * 10)}`;
  return `x${value}`;
}

/**
 * `count` contexts for a file's flags, seeded: first the contexts of the file's own cases, then
 * contexts whose userId, sessionId, remoteAddress, environment, appName, currentTime and
 * properties are each absent, one of the values the file uses, a value near one, or a fresh one.
 */
export function specContexts(file: SpecFile, count: number, seed: number): Context[] {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const values = valuesOf(file);
  const pool = (field: string) => [...(values.get(field) ?? [])];
  const fresh: Record<string, () => string> = {
    userId: () => String(Math.floor(random() * 1000)),
    sessionId: () => `s-${Math.floor(random() * 100_000)}`,
    remoteAddress: () => `${pick(["10.0", "127.0", "192.168"])}.${Math.floor(random() * 3)}.${Math.floor(random() * 256)}`,
    environment: () => pick(["default", "development", "production"]),
    appName: () => pick(["web", "peer-migrate-specification", "mobile"]),
    currentTime: () => new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 8 * 365) * 86_400_000).toISOString(),
  };
  const value = (field: string, freshValue: (() => string) | undefined): string | null | undefined => {
    const known = pool(field);
    const r = random();
    if (r < 0.15) return undefined;
    if (known.length && r < 0.6) return pick(known);
    if (known.length && (r < 0.85 || !freshValue)) return nearby(pick(known), random);
    return freshValue?.();
  };
  const contexts: Context[] = [...(file.tests ?? []), ...(file.variantTests ?? [])].map((c) => c.context as Context).slice(0, count);
  const propertyNames = [...values.keys()].filter((f) => !STANDARD_FIELDS.has(f));
  while (contexts.length < count) {
    const context: Record<string, unknown> = {};
    for (const field of STANDARD_FIELDS) {
      const v = value(field, fresh[field]);
      if (v === undefined || v === null) continue;
      context[field] = field === "currentTime" ? new Date(v) : v;
    }
    const properties: Record<string, string> = {};
    for (const name of propertyNames) {
      const v = value(name, undefined);
      if (typeof v === "string") properties[name] = v;
    }
    context.properties = properties;
    contexts.push(context as Context);
  }
  return contexts;
}
