import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";
import { normalisedPath, PATH_GRAMMAR, type ScimPatchOperation, scimBoolean, withPaths } from "./scim-patch-operations.ts";
import { ScimRefusal } from "./scim-refusal.ts";

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";

/** What Vexil keeps of a SCIM user (docs/scim.md#users); every other attribute an identity provider sends is ignored. */
export interface ScimUserState {
  userName: string;
  externalId: string | null;
  /** Vexil's one name of a person: displayName, else name.formatted, else givenName and familyName. */
  displayName: string | null;
  email: string | null;
  active: boolean;
}

/** A user as SCIM shows it (RFC 7643 §4.1). */
export interface ScimUser {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  displayName?: string;
  name?: { formatted: string };
  emails?: { value: string; type: "work"; primary: true }[];
  active: boolean;
  meta: { resourceType: "User"; created: Date; location: string };
}

type UserRow = Selectable<Database["users"]>;

export function toScimUser(row: UserRow): ScimUser {
  const id = row.scim_id as string;
  return {
    schemas: [USER_SCHEMA],
    id,
    ...(row.scim_external_id === null ? {} : { externalId: row.scim_external_id }),
    userName: row.username ?? row.email ?? "",
    ...(row.name === null ? {} : { displayName: row.name, name: { formatted: row.name } }),
    ...(row.email === null ? {} : { emails: [{ value: row.email, type: "work" as const, primary: true as const }] }),
    active: row.active,
    meta: { resourceType: "User", created: row.created_at, location: `/scim/v2/Users/${id}` },
  };
}

export function stateOfRow(row: UserRow): ScimUserState {
  return {
    userName: row.username ?? row.email ?? "",
    externalId: row.scim_external_id,
    displayName: row.name,
    email: row.email,
    active: row.active,
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);

function text(value: unknown, path: string, max: number): string {
  if (typeof value !== "string" || value.trim() === "") throw new ScimRefusal("invalidValue", `${path} must be a non-empty string.`, path);
  if (value.length > max) throw new ScimRefusal("invalidValue", `${path} must be at most ${max} characters.`, path);
  return value;
}
const optionalText = (value: unknown, path: string, max: number) => (value === undefined || value === null ? null : text(value, path, max));

/** The name a `name` object forms: its formatted one, else given and family name. */
function nameOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) throw new ScimRefusal("invalidValue", "name must be an object.", "name");
  const formatted = optionalText(value.formatted, "name.formatted", 200);
  if (formatted) return formatted;
  const parts = [optionalText(value.givenName, "name.givenName", 100), optionalText(value.familyName, "name.familyName", 100)];
  return parts.filter((p) => p !== null).join(" ") || null;
}

/** The e-mail of an `emails` list: the primary one, else the work one, else the first. */
function emailOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || !value.every(isObject))
    throw new ScimRefusal("invalidValue", "emails must be a list of {value, type, primary}.", "emails");
  const chosen =
    value.find((e) => e.primary === true || e.primary === "True" || e.primary === "true") ??
    value.find((e) => e.type === "work") ??
    value[0];
  return chosen === undefined ? null : email(chosen.value, "emails.value");
}

function email(value: unknown, path: string): string {
  const address = text(value, path, 320);
  if (!/^[^\s@]+@[^\s@]+$/.test(address)) throw new ScimRefusal("invalidValue", `${path} "${address}" is not an e-mail address.`, path);
  return address;
}

/** The state a whole User resource asks for (POST and PUT): userName required, active true unless it says false. */
export function userStateFromResource(body: unknown): ScimUserState {
  if (!isObject(body)) throw new ScimRefusal("invalidSyntax", "The body must be a SCIM User resource, a JSON object.");
  return {
    userName: text(body.userName, "userName", 320),
    externalId: optionalText(body.externalId, "externalId", 320),
    displayName: optionalText(body.displayName, "displayName", 200) ?? nameOf(body.name),
    email: emailOf(body.emails),
    active: body.active === undefined ? true : scimBoolean(body.active, "active"),
  };
}

// `emails[type eq "work"].value` and `emails[primary eq true].value`: Vexil's one e-mail either way.
const EMAIL_VALUE = /^emails\[(type eq "work"|primary eq true)\]\.value$/;

/** The state after a PATCH's operations (RFC 7644 §3.5.2), applied in order; paths Vexil does not keep change nothing. */
export function patchUserState(state: ScimUserState, operations: ScimPatchOperation[]): ScimUserState {
  const next = { ...state };
  for (const { op, path, value } of withPaths(operations)) {
    if (!PATH_GRAMMAR.test(path)) throw new ScimRefusal("invalidPath", `"${path}" is not an attribute path.`, "path");
    const attribute = normalisedPath(path, USER_SCHEMA);
    const removing = op === "remove";
    switch (attribute) {
      case "active":
        if (removing) throw new ScimRefusal("mutability", "active cannot be removed; replace it with false.", "active");
        next.active = scimBoolean(value, "active");
        break;
      case "username":
        if (removing) throw new ScimRefusal("mutability", "userName is required and cannot be removed.", "userName");
        next.userName = text(value, "userName", 320);
        break;
      case "externalid":
        next.externalId = removing ? null : optionalText(value, "externalId", 320);
        break;
      case "displayname":
      case "name.formatted":
        next.displayName = removing ? null : optionalText(value, path, 200);
        break;
      case "name":
        next.displayName = removing ? null : nameOf(value);
        break;
      case "emails":
        next.email = removing ? null : emailOf(value);
        break;
      default:
        if (EMAIL_VALUE.test(attribute)) next.email = removing ? null : email(value, path);
      // Attributes Vexil does not keep (phoneNumbers, title, name.givenName, the enterprise extension) are ignored.
    }
  }
  return next;
}
