import { ValidationError } from "../errors/domain-error.ts";

/** One operation of an RFC 6902 JSON patch. */
export type JsonPatchOperation =
  | { op: "add" | "replace" | "test"; path: string; value?: unknown }
  | { op: "remove"; path: string }
  | { op: "move" | "copy"; from: string; path: string };

type Json = unknown;
type Container = Json[] | Record<string, Json>;

class PatchFailure extends Error {}

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/** RFC 6901: "" is the whole document, "/a~1b/0" is member "a/b", then element 0. */
function parsePointer(pointer: string, field: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new PatchFailure(`"${field}" must be "" or start with "/"`);
  return pointer
    .slice(1)
    .split("/")
    .map((token) => {
      if (/~([^01]|$)/.test(token)) throw new PatchFailure(`"${field}" has "~" not followed by 0 or 1`);
      return token.replace(/~1/g, "/").replace(/~0/g, "~");
    });
}

function isContainer(value: Json): value is Container {
  return typeof value === "object" && value !== null;
}

function describe(tokens: string[]): string {
  return `/${tokens.map((t) => t.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}

/** The index a token names in an array; `length` allows one past the end (for add). */
function arrayIndex(array: Json[], token: string, tokens: string[], allowEnd: boolean): number {
  if (allowEnd && token === "-") return array.length;
  if (!ARRAY_INDEX.test(token)) throw new PatchFailure(`"${token}" in "${describe(tokens)}" is not an array index`);
  const index = Number(token);
  const last = allowEnd ? array.length : array.length - 1;
  if (index > last) throw new PatchFailure(`"${describe(tokens)}" does not exist: the array has ${array.length} elements`);
  return index;
}

function get(document: Json, tokens: string[]): Json {
  let node = document;
  tokens.forEach((token, i) => {
    const here = tokens.slice(0, i + 1);
    if (Array.isArray(node)) node = node[arrayIndex(node, token, here, false)];
    else if (isContainer(node) && Object.hasOwn(node, token)) node = (node as Record<string, Json>)[token];
    else throw new PatchFailure(`"${describe(here)}" does not exist`);
  });
  return node;
}

function parentOf(document: Json, tokens: string[]): { parent: Container; key: string } {
  const parent = get(document, tokens.slice(0, -1));
  if (!isContainer(parent)) throw new PatchFailure(`"${describe(tokens.slice(0, -1))}" is not an object or an array`);
  return { parent, key: tokens[tokens.length - 1] as string };
}

function setMember(object: Record<string, Json>, key: string, value: Json): void {
  // defineProperty, not assignment: a member named "__proto__" must stay a plain member.
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

function add(document: Json, tokens: string[], value: Json): Json {
  if (tokens.length === 0) return value;
  const { parent, key } = parentOf(document, tokens);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, tokens, true), 0, value);
  else setMember(parent, key, value);
  return document;
}

function remove(document: Json, tokens: string[]): Json {
  if (tokens.length === 0) throw new PatchFailure("the whole document cannot be removed");
  const { parent, key } = parentOf(document, tokens);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, tokens, false), 1);
  else if (Object.hasOwn(parent, key)) delete parent[key];
  else throw new PatchFailure(`"${describe(tokens)}" does not exist`);
  return document;
}

function jsonEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (!isContainer(a) || !isContainer(b)) return false;
  const x = a as Record<string, Json>;
  const y = b as Record<string, Json>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && jsonEqual(x[k], y[k]));
}

function applyOne(document: Json, operation: JsonPatchOperation): Json {
  const path = parsePointer(operation.path, "path");
  switch (operation.op) {
    case "add":
    case "replace":
    case "test": {
      if (!("value" in operation) || operation.value === undefined) throw new PatchFailure(`"${operation.op}" needs a "value"`);
      const value = structuredClone(operation.value);
      if (operation.op === "add") return add(document, path, value);
      const current = get(document, path); // replace and test need the target to exist
      if (operation.op === "test") {
        if (!jsonEqual(current, value)) throw new PatchFailure(`the test failed: the value at "${operation.path}" is not the one given`);
        return document;
      }
      return path.length === 0 ? value : add(remove(document, path), path, value);
    }
    case "remove":
      return remove(document, path);
    case "move":
    case "copy": {
      const from = parsePointer(operation.from, "from");
      const value = get(document, from);
      if (operation.op === "copy") return add(document, path, structuredClone(value));
      const inside = from.length < path.length && from.every((t, i) => t === path[i]);
      if (inside) throw new PatchFailure(`"${operation.from}" cannot be moved into one of its own children`);
      return add(remove(document, from), path, value);
    }
    default:
      throw new PatchFailure(`"${(operation as { op: unknown }).op}" is not an operation of RFC 6902`);
  }
}

/** The most operations one patch may have, on every PATCH route (docs/limits.md#json-patches). */
const MAX_PATCH_OPERATIONS = 100;

/** The largest document a patch may make, the default body limit: a `copy` from "" doubles it each time. */
const MAX_PATCHED_BYTES = 256 * 1024;

const byteSize = (value: Json) => Buffer.byteLength(JSON.stringify(value) ?? "");

/** What an operation adds to the document's size: a copy its source's, an add or replace its value's. */
function addedBytes(document: Json, operation: JsonPatchOperation): number {
  if (operation.op === "copy") return byteSize(get(document, parsePointer(operation.from, "from")));
  if (operation.op === "add" || operation.op === "replace") return byteSize(operation.value);
  return 0;
}

/**
 * Applies an RFC 6902 JSON patch to a copy of `document`, all operations or none. A patch that
 * cannot apply (a missing path, a failed test), has too many operations or makes too large a
 * document is a ValidationError naming the operation and why.
 */
export function applyJsonPatch(document: Json, operations: JsonPatchOperation[], detailPath = "patch"): Json {
  if (operations.length > MAX_PATCH_OPERATIONS) {
    throw new ValidationError(`A patch may have at most ${MAX_PATCH_OPERATIONS} operations; this one has ${operations.length}.`, [
      { path: detailPath, message: `at most ${MAX_PATCH_OPERATIONS} operations` },
    ]);
  }
  let result = structuredClone(document);
  // An upper bound of the result's size, measured again only when it passes the limit, so that a patch stringifies the document rarely.
  let size = byteSize(result);
  operations.forEach((operation, i) => {
    try {
      const added = addedBytes(result, operation);
      if (added > 0) {
        size += added;
        // Checked before the operation runs, so that a document over the limit is never made.
        if (size > MAX_PATCHED_BYTES && (size = byteSize(result) + added) > MAX_PATCHED_BYTES) {
          throw new PatchFailure(`the document would be larger than ${MAX_PATCHED_BYTES / 1024} KiB`);
        }
      }
      result = applyOne(result, operation);
    } catch (error) {
      if (!(error instanceof PatchFailure)) throw error;
      const message = `operation ${i} (${operation.op} "${operation.path}"): ${error.message}`;
      throw new ValidationError(`The patch cannot be applied: ${message}.`, [{ path: `${detailPath}.${i}`, message: error.message }]);
    }
  });
  return result;
}
