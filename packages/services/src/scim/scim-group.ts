import { normalisedPath, PATH_GRAMMAR, type ScimPatchOperation, withPaths } from "./scim-patch-operations.ts";
import { ScimRefusal } from "./scim-refusal.ts";

export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";

/** What Vexil keeps of a SCIM group: its name, the provider's id, and its members by their SCIM ids. */
export interface ScimGroupState {
  displayName: string;
  externalId: string | null;
  members: string[];
}

/** A group as SCIM shows it (RFC 7643 §4.2). */
export interface ScimGroup {
  schemas: string[];
  id: string;
  externalId?: string;
  displayName: string;
  // No `$ref` (optional in RFC 7643 §4.2): the member's URI is `/scim/v2/Users/<value>`.
  members?: { value: string; display: string; type: "User" }[];
  meta: { resourceType: "Group"; created: Date; location: string };
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);

function text(value: unknown, path: string, max: number): string {
  if (typeof value !== "string" || value.trim() === "") throw new ScimRefusal("invalidValue", `${path} must be a non-empty string.`, path);
  if (value.length > max) throw new ScimRefusal("invalidValue", `${path} must be at most ${max} characters.`, path);
  return value;
}

/** SCIM ids of a `members` value: a list of `{value}` (Entra and Okta alike), at most 1000 at a time. */
function memberIds(value: unknown, path: string): string[] {
  const list = isObject(value) ? [value] : value;
  if (!Array.isArray(list) || !list.every((m) => isObject(m) && typeof m.value === "string" && m.value !== "")) {
    throw new ScimRefusal("invalidValue", `${path} must be a list of {"value": "<user id>"}.`, path);
  }
  if (list.length > 1000) throw new ScimRefusal("invalidValue", `${path} lists more than 1000 members; send them in parts.`, path);
  return [...new Set(list.map((m) => (m as { value: string }).value))];
}

/** The state a whole Group resource asks for (POST and PUT). */
export function groupStateFromResource(body: unknown): ScimGroupState {
  if (!isObject(body)) throw new ScimRefusal("invalidSyntax", "The body must be a SCIM Group resource, a JSON object.");
  return {
    displayName: text(body.displayName, "displayName", 200),
    externalId: body.externalId === undefined || body.externalId === null ? null : text(body.externalId, "externalId", 320),
    members: body.members === undefined || body.members === null ? [] : memberIds(body.members, "members"),
  };
}

// `members[value eq "<id>"]`, as a remove of one member names it.
const ONE_MEMBER = /^members\[value eq ("(?:[^"\\]|\\.)*")\]$/i;

/** The state after a PATCH's operations: members added, removed or replaced; a rename; paths Vexil does not keep change nothing. */
export function patchGroupState(state: ScimGroupState, operations: ScimPatchOperation[]): ScimGroupState {
  const next = { ...state, members: [...state.members] };
  for (const { op, path, value } of withPaths(operations)) {
    if (!PATH_GRAMMAR.test(path)) throw new ScimRefusal("invalidPath", `"${path}" is not an attribute path.`, "path");
    const attribute = normalisedPath(path, GROUP_SCHEMA);
    const one = ONE_MEMBER.exec(path.trim());
    if (attribute === "displayname") {
      if (op === "remove") throw new ScimRefusal("mutability", "displayName is required and cannot be removed.", "displayName");
      next.displayName = text(value, "displayName", 200);
    } else if (attribute === "externalid") {
      next.externalId = op === "remove" || value === null ? null : text(value, "externalId", 320);
    } else if (attribute === "members") {
      if (op === "remove") {
        // Without a value, every member goes (RFC 7644 §3.5.2.2); with one (Entra's way), those listed.
        const gone = value === undefined || value === null ? next.members : memberIds(value, "members");
        next.members = next.members.filter((m) => !gone.includes(m));
      } else {
        const ids = memberIds(value, "members");
        next.members = op === "replace" ? ids : [...new Set([...next.members, ...ids])];
      }
    } else if (one) {
      if (op !== "remove")
        throw new ScimRefusal("invalidPath", `${path} can only be removed; add members with the path "members".`, "path");
      const id = JSON.parse(one[1] as string) as string;
      next.members = next.members.filter((m) => m !== id);
    }
    // Anything else (id, meta, attributes of extensions) is not kept, and changes nothing.
  }
  return next;
}
