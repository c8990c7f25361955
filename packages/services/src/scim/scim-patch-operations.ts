import { ScimRefusal } from "./scim-refusal.ts";

/** One operation of a SCIM PATCH, its op lower-cased (Entra sends "Replace", Okta "replace"). */
export interface ScimPatchOperation {
  op: "add" | "replace" | "remove";
  /** Without one, `value` is an object of attribute paths and their values (Okta's `{"op": "replace", "value": {"active": false}}`). */
  path: string | undefined;
  value: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);

/** The `Operations` of a PatchOp body (RFC 7644 §3.5.2), checked for shape; what each path means is the resource's to say. */
export function parsePatchOperations(body: unknown): ScimPatchOperation[] {
  if (!isObject(body) || !Array.isArray(body.Operations)) {
    throw new ScimRefusal(
      "invalidSyntax",
      'A PATCH body is a PatchOp: {"schemas": [...PatchOp], "Operations": [{"op", "path", "value"}]}.',
      "Operations",
    );
  }
  if (body.Operations.length === 0) throw new ScimRefusal("invalidSyntax", "A PATCH needs at least one operation.", "Operations");
  return body.Operations.map((raw, i) => {
    if (!isObject(raw) || typeof raw.op !== "string") {
      throw new ScimRefusal("invalidSyntax", `Operation ${i} needs an "op": add, replace or remove.`, `Operations.${i}.op`);
    }
    const op = (raw.op as string).toLowerCase();
    if (op !== "add" && op !== "replace" && op !== "remove") {
      throw new ScimRefusal(
        "invalidSyntax",
        `Operation ${i} has the op "${raw.op}"; SCIM's ops are add, replace and remove.`,
        `Operations.${i}.op`,
      );
    }
    if (raw.path !== undefined && (typeof raw.path !== "string" || raw.path.trim() === "")) {
      throw new ScimRefusal("invalidPath", `Operation ${i} has a path that is no attribute path.`, `Operations.${i}.path`);
    }
    const path = raw.path === undefined ? undefined : (raw.path as string).trim();
    if (path === undefined && op === "remove")
      throw new ScimRefusal("noTarget", `Operation ${i} removes without a path.`, `Operations.${i}.path`);
    if (path === undefined && !isObject(raw.value)) {
      throw new ScimRefusal(
        "invalidValue",
        `Operation ${i} has no path, so its value must be an object of attributes.`,
        `Operations.${i}.value`,
      );
    }
    return { op, path, value: raw.value };
  });
}

/**
 * The operations with a path each: an operation without one becomes one per attribute of its value
 * (RFC 7644 §3.5.2.1 and .3), whose keys may themselves be paths (Entra sends `"name.givenName"`).
 */
export function withPaths(operations: ScimPatchOperation[]): { op: ScimPatchOperation["op"]; path: string; value: unknown }[] {
  return operations.flatMap((o) =>
    o.path !== undefined
      ? [{ op: o.op, path: o.path, value: o.value }]
      : Object.entries(o.value as object).map(([path, value]) => ({ op: o.op, path, value })),
  );
}

/** A path without its schema's URN prefix, lower-cased: SCIM's attribute names are case-insensitive. */
export function normalisedPath(path: string, schema: string): string {
  const lower = path.toLowerCase();
  const prefix = `${schema.toLowerCase()}:`;
  return lower.startsWith(prefix) ? lower.slice(prefix.length) : lower;
}

/** A path of SCIM's grammar (RFC 7644 §3.5.2: `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`, optionally under a URN). */
export const PATH_GRAMMAR = /^(urn:[\w.:-]+:)?[A-Za-z$][\w$-]*(\.[A-Za-z$][\w$-]*)?(\[[^\]]+\](\.[A-Za-z$][\w$-]*)?)?$/i;

/** A boolean as SCIM sends it; Entra sends `"True"` and `"False"` as strings. */
export function scimBoolean(value: unknown, path: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  throw new ScimRefusal("invalidValue", `${path} must be true or false.`, path);
}
