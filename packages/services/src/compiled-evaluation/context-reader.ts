import { CONTEXT_FIELDS, type FrontendContext } from "../frontend-evaluation/frontend-context.ts";
import { CONTEXT_DEFAULTS } from "../frontend-evaluation/frontend-evaluator.ts";

/** One context value as the SDK's `resolveContextValue` gives it: a string, or undefined when absent. */
export type ContextReader = (context: FrontendContext) => string | undefined;

type Field = (typeof CONTEXT_FIELDS)[number];
const FIELDS: ReadonlySet<string> = new Set(CONTEXT_FIELDS);

const asValue = (value: unknown): string | undefined =>
  typeof value === "string" ? value : value === undefined || value === null ? undefined : String(value);

/**
 * Where a context value is read, as data (the flat loop reads it without a closure,
 * docs/evaluation.md#the-flat-loop): a field at the context's top (with the default under it, or
 * else the property of the same name), or a property alone.
 */
export interface ContextRead {
  readonly field: Field | undefined;
  readonly fallback: string | undefined;
  readonly name: string;
}

/** The value at `r` (see contextReader). */
export function readContext(r: ContextRead, context: FrontendContext): string | undefined {
  if (r.field !== undefined) {
    const given = context[r.field];
    return given || (r.fallback !== undefined ? r.fallback : asValue(context.properties?.[r.name]));
  }
  const properties = context.properties;
  return properties === undefined ? undefined : asValue(properties[r.name]);
}

// One ContextRead per name, shared by every plan that reads it: the flat loop touches one object
// for a name a thousand flags read (the names are the context fields' and the admins' own).
const reads = new Map<string, ContextRead>();

/** Where `name` is read, or undefined when it reads a fixed text whatever the context (see contextReader). */
export function contextRead(name: string): ContextRead | undefined {
  if (!FIELDS.has(name) && (name === "properties" || ({} as Record<string, unknown>)[name] != null)) return undefined;
  let read = reads.get(name);
  if (read === undefined) {
    const field = FIELDS.has(name) ? (name as Field) : undefined;
    const fallback = field !== undefined && Object.hasOwn(CONTEXT_DEFAULTS, name) ? CONTEXT_DEFAULTS[name] : undefined;
    read = Object.freeze({ field, fallback, name });
    reads.set(name, read);
  }
  return read;
}

/**
 * A reader of `name` over the context the SDK's evaluator would have been given
 * (docs/evaluation.md#reading-the-context): the defaults under it, a field given only when not
 * empty, then the properties. The SDK looks the name up on a plain object, so names that object
 * inherits (`constructor`, `toString`, ...) and `properties` itself read as their text, whatever
 * the context holds.
 */
export function contextReader(name: string): ContextReader {
  const read = contextRead(name);
  if (read !== undefined) return (context) => readContext(read, context);
  const text = name === "properties" ? "[object Object]" : String(({} as Record<string, unknown>)[name]);
  return () => text;
}
