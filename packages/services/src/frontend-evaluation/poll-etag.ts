import { createHash } from "node:crypto";
import type { EvaluationDependencies, RandomDraw } from "./evaluation-dependencies.ts";
import type { FrontendContext } from "./frontend-context.ts";
import { sdkContext } from "./frontend-evaluator.ts";

type SeenContext = Record<string, unknown> & { properties?: Record<string, unknown> };

const own = (record: Record<string, unknown> | undefined, name: string) => (record && Object.hasOwn(record, name) ? record[name] : null);

/** Whether the evaluator would draw for this context, as the SDK decides it. */
function drawn(draw: RandomDraw, seen: SeenContext): boolean {
  if (draw.fields) return !draw.fields.some((field) => typeof seen[field] === "string" && seen[field] !== "");
  if (draw.name !== undefined) {
    const value = seen[draw.name] ?? seen.properties?.[draw.name];
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
  const seen = sdkContext(context) as unknown as SeenContext;
  for (const draw of dependencies.draws) if (drawn(draw, seen)) return undefined;
  const parts: unknown[] = [dependencies.digest, about];
  for (const name of dependencies.reads) parts.push(name, own(seen, name), own(seen.properties, name));
  if (dependencies.dateBoundaries.length > 0) {
    const at = typeof seen.currentTime === "string" ? new Date(seen.currentTime).getTime() : now;
    parts.push(timeBucket(dependencies.dateBoundaries, at));
  }
  return `"${createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 27)}"`;
}

/** The ETag of an answer that only its bytes can describe (a drawn one): a digest of them. */
export function bodyEtag(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}
