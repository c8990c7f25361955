import { CONTEXT_FIELDS, type FrontendContext } from "../frontend-evaluation/frontend-context.ts";
import { CONTEXT_DEFAULTS } from "../frontend-evaluation/frontend-evaluator.ts";

/** One context value as the SDK's `resolveContextValue` gives it: a string, or undefined when absent. */
export type ContextReader = (context: FrontendContext) => string | undefined;

type Field = (typeof CONTEXT_FIELDS)[number];
const FIELDS: ReadonlySet<string> = new Set(CONTEXT_FIELDS);

const asValue = (value: unknown): string | undefined =>
  typeof value === "string" ? value : value === undefined || value === null ? undefined : String(value);

/**
 * A reader of `name` over the context the SDK's evaluator would have been given
 * (docs/evaluation.md#reading-the-context): the defaults under it, a field given only when not
 * empty, then the properties. The SDK looks the name up on a plain object, so names that object
 * inherits (`constructor`, `toString`, ...) and `properties` itself read as their text, whatever
 * the context holds.
 */
export function contextReader(name: string): ContextReader {
  if (FIELDS.has(name)) {
    const field = name as Field;
    const fallback = Object.hasOwn(CONTEXT_DEFAULTS, name) ? CONTEXT_DEFAULTS[name] : undefined;
    if (fallback !== undefined) return (context) => context[field] || fallback;
    return (context) => context[field] || asValue(context.properties?.[name]);
  }
  if (name === "properties") return () => "[object Object]";
  const inherited: unknown = ({} as Record<string, unknown>)[name];
  if (inherited !== undefined && inherited !== null) {
    const text = String(inherited);
    return () => text;
  }
  return (context) => {
    const properties = context.properties;
    return properties === undefined ? undefined : asValue(properties[name]);
  };
}
