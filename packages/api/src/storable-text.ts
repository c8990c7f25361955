import { ValidationError } from "@vexil/services";

const MAX_DEPTH = 64;
// A UTF-16 surrogate without its other half: JSON can carry it as an escape, but it is no character.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOf(text: string): string | null {
  if (text.includes("\u0000")) return "a NUL character";
  if (LONE_SURROGATE.test(text)) return "an unpaired UTF-16 surrogate";
  return null;
}

/** The first string (or key) in an input that Postgres cannot store: its dotted path ("" for the root) and why. */
function unstorableTextAt(value: unknown, path = "", depth = 0): { path: string; problem: string } | null {
  if (typeof value === "string") {
    const problem = problemOf(value);
    return problem ? { path, problem } : null;
  }
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return null;
  for (const [key, inner] of Object.entries(value)) {
    const keyPath = path ? `${path}.${key}` : key;
    const problem = problemOf(key);
    if (problem) return { path: keyPath, problem };
    const found = unstorableTextAt(inner, keyPath, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Postgres text and jsonb cannot hold U+0000, and jsonb refuses an unpaired surrogate: either one
 * that reached a query (every write appends a jsonb event) failed it as a 500. Refused up front, as
 * the 400 any other unstorable input gets.
 */
export function assertStorableText(input: unknown): void {
  const found = unstorableTextAt(input);
  if (!found) return;
  const where = found.path ? `"${found.path}"` : "The input";
  const named = found.problem === "a NUL character" ? "a NUL character (\\u0000)" : found.problem;
  throw new ValidationError(`${where} contains ${named}, which cannot be stored.`, [
    { path: found.path, message: `must not contain ${found.problem}` },
  ]);
}
