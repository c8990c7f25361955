import { hash } from "node:crypto";
import type { EvaluationDependencies, RandomDraw } from "./evaluation-dependencies.ts";
import { CONTEXT_FIELDS, type FrontendContext } from "./frontend-context.ts";
import { CONTEXT_DEFAULTS } from "./frontend-evaluator.ts";

type Field = (typeof CONTEXT_FIELDS)[number];
const FIELDS: ReadonlySet<string> = new Set(CONTEXT_FIELDS);
const NO_PROPERTIES: Record<string, string> = {};

/**
 * A value at the top of the context as the evaluator reads it (as frontend-evaluator builds it: a
 * field given, else its default; the properties), read without building that context per poll.
 */
function topLevel(context: FrontendContext, name: string): unknown {
  if (FIELDS.has(name)) return context[name as Field] || (Object.hasOwn(CONTEXT_DEFAULTS, name) ? CONTEXT_DEFAULTS[name] : undefined);
  return name === "properties" ? (context.properties ?? NO_PROPERTIES) : undefined;
}

/** Whether the evaluator would draw for this context, as the SDK decides it. */
function drawn(draw: RandomDraw, context: FrontendContext): boolean {
  if (draw.fields) {
    return !draw.fields.some((field) => {
      const value = topLevel(context, field);
      return typeof value === "string" && value !== "";
    });
  }
  if (draw.name !== undefined) {
    // A constraint's reading: the top first, then the properties (inherited names included, as the SDK's lookup finds them).
    const value = topLevel(context, draw.name) ?? (context.properties ?? NO_PROPERTIES)[draw.name];
    return value === undefined || value === null || String(value) === "";
  }
  return true;
}

/** Where an instant stands among the boundaries: how many lie before it, and whether it is one (where both date operators answer false). */
function timeBucket(boundaries: readonly number[], at: number): string {
  if (Number.isNaN(at)) return "NaN";
  let before = 0;
  while (before < boundaries.length && (boundaries[before] as number) < at) before++;
  return boundaries[before] === at ? `${before}=` : `${before}`;
}

/**
 * The ETag of an answer computed for `context` over a snapshot with these dependencies, without
 * evaluating (docs/sdk-protocols.md#poll-etags); `about` names everything else the answer is made
 * of (the route's kind of body, the token's scope). Undefined when evaluation would draw at random
 * for this context: only the answer itself can then say whether it changed.
 */
export function pollEtag(
  dependencies: EvaluationDependencies,
  context: FrontendContext,
  about: string,
  now = Date.now(),
): string | undefined {
  for (const draw of dependencies.draws) if (drawn(draw, context)) return undefined;
  const properties = context.properties ?? NO_PROPERTIES;
  const parts: unknown[] = [dependencies.digest, about];
  for (const name of dependencies.reads) {
    parts.push(name, topLevel(context, name) ?? null, Object.hasOwn(properties, name) ? properties[name] : null);
  }
  if (dependencies.dateBoundaries.length > 0) {
    const currentTime = context.currentTime;
    parts.push(timeBucket(dependencies.dateBoundaries, currentTime ? new Date(currentTime).getTime() : now));
  }
  return `"${hash("sha256", JSON.stringify(parts), "base64url").slice(0, 27)}"`;
}

/** The ETag of an answer that only its bytes can describe (a drawn one): a digest of them. */
export function bodyEtag(body: Buffer): string {
  return `"${hash("sha256", body, "base64url").slice(0, 27)}"`;
}
