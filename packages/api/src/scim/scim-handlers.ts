import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createScimGroup,
  createScimUser,
  deleteScimGroup,
  deleteScimUser,
  getScimGroup,
  getScimUser,
  listScimGroups,
  listScimUsers,
  patchScimGroup,
  patchScimUser,
  replaceScimGroup,
  replaceScimUser,
  type ScimGroupView,
} from "@vexil/services";
import { toJson } from "../schemas/to-json.ts";
import { scimListQuerySchema } from "../schemas/scim.ts";
import type { RawHandler } from "../trpc.ts";
import { listResponse, RESOURCE_TYPES, SCHEMAS, SERVICE_PROVIDER_CONFIG } from "./scim-discovery.ts";
import { SCIM_CONTENT_TYPE } from "./scim-failure.ts";

/** A SCIM answer, in SCIM's media type (RFC 7644 §3.1). */
function sendScim(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(toJson(body));
  res.writeHead(status, { ...headers, "content-type": SCIM_CONTENT_TYPE, "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}

/** A resource gone: 204 and no body (RFC 7644 §3.6). */
function sendNoContent(res: ServerResponse): void {
  res.writeHead(204);
  res.end();
}

/** A list's query, by the procedure's schema: a repeated or malformed parameter is a 400. */
function scimListQuery(req: IncomingMessage) {
  const url = req.url ?? "";
  const at = url.indexOf("?");
  const fields: Record<string, string | string[]> = {};
  if (at !== -1) {
    for (const [key, value] of new URLSearchParams(url.slice(at + 1))) {
      const seen = fields[key];
      fields[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
  }
  return scimListQuerySchema.parse(fields);
}

/** Whether `excludedAttributes` (a comma-separated list) leaves out a group's members. */
export const groupView = (excludedAttributes: string | undefined): ScimGroupView => ({
  withMembers: !(excludedAttributes ?? "")
    .split(",")
    .some((a) => a.trim().toLowerCase() === "members"),
});

export const handleServiceProviderConfig: RawHandler = async (_req, res) => sendScim(res, 200, SERVICE_PROVIDER_CONFIG);
export const handleResourceTypes: RawHandler = async (_req, res) => sendScim(res, 200, RESOURCE_TYPES);
export const handleSchemas: RawHandler = async (_req, res) => sendScim(res, 200, SCHEMAS);

export const handleListUsers: RawHandler = async (req, res, ctx) => {
  const page = await listScimUsers(ctx.db, scimListQuery(req));
  sendScim(res, 200, listResponse(page.resources, page.totalResults, page.startIndex));
};
export const handleCreateUser: RawHandler = async (_req, res, ctx, { body }) => {
  const user = await createScimUser(ctx.db, ctx.principal, body);
  sendScim(res, 201, user, { location: user.meta.location });
};
export const handleGetUser: RawHandler = async (_req, res, ctx, { params }) => sendScim(res, 200, await getScimUser(ctx.db, params.id as string));
export const handleReplaceUser: RawHandler = async (_req, res, ctx, { params, body }) =>
  sendScim(res, 200, await replaceScimUser(ctx.db, ctx.principal, params.id as string, body));
export const handlePatchUser: RawHandler = async (_req, res, ctx, { params, body }) =>
  sendScim(res, 200, await patchScimUser(ctx.db, ctx.principal, params.id as string, body));
export const handleDeleteUser: RawHandler = async (_req, res, ctx, { params }) => {
  await deleteScimUser(ctx.db, ctx.principal, params.id as string);
  sendNoContent(res);
};

export const handleListGroups: RawHandler = async (req, res, ctx) => {
  const query = scimListQuery(req);
  const page = await listScimGroups(ctx.db, query, groupView(query.excludedAttributes));
  sendScim(res, 200, listResponse(page.resources, page.totalResults, page.startIndex));
};
export const handleCreateGroup: RawHandler = async (_req, res, ctx, { body }) => {
  const group = await createScimGroup(ctx.db, ctx.principal, body);
  sendScim(res, 201, group, { location: group.meta.location });
};
export const handleGetGroup: RawHandler = async (req, res, ctx, { params }) =>
  sendScim(res, 200, await getScimGroup(ctx.db, params.id as string, groupView(scimListQuery(req).excludedAttributes)));
export const handleReplaceGroup: RawHandler = async (_req, res, ctx, { params, body }) =>
  sendScim(res, 200, await replaceScimGroup(ctx.db, ctx.principal, params.id as string, body, { withMembers: true }));
// Entra's PATCH of a group's members expects 204 or 200; 200 with the group is answered, members left out when asked.
export const handlePatchGroup: RawHandler = async (req, res, ctx, { params, body }) =>
  sendScim(res, 200, await patchScimGroup(ctx.db, ctx.principal, params.id as string, body, groupView(scimListQuery(req).excludedAttributes)));
export const handleDeleteGroup: RawHandler = async (_req, res, ctx, { params }) => {
  await deleteScimGroup(ctx.db, ctx.principal, params.id as string);
  sendNoContent(res);
};
