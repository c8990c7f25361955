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
import { assertStorableText } from "../storable-text.ts";
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
  assertStorableText(fields);
  return scimListQuerySchema.parse(fields);
}

/**
 * A SCIM route's handler, given what the procedure's middleware would have checked: no text that
 * Postgres cannot store (a NUL, a lone surrogate) in the path or the body, as the same 400.
 */
const scimRoute =
  (handle: RawHandler): RawHandler =>
  (req, res, ctx, request) => {
    assertStorableText(request.params);
    assertStorableText(request.body);
    return handle(req, res, ctx, request);
  };

/** Whether `excludedAttributes` (a comma-separated list) leaves out a group's members. */
export const groupView = (excludedAttributes: string | undefined): ScimGroupView => ({
  withMembers: !(excludedAttributes ?? "").split(",").some((a) => a.trim().toLowerCase() === "members"),
});

export const handleServiceProviderConfig = scimRoute(async (_req, res) => sendScim(res, 200, SERVICE_PROVIDER_CONFIG));
export const handleResourceTypes = scimRoute(async (_req, res) => sendScim(res, 200, RESOURCE_TYPES));
export const handleSchemas = scimRoute(async (_req, res) => sendScim(res, 200, SCHEMAS));

export const handleListUsers = scimRoute(async (req, res, ctx) => {
  const page = await listScimUsers(ctx.db, scimListQuery(req));
  sendScim(res, 200, listResponse(page.resources, page.totalResults, page.startIndex));
});
export const handleCreateUser = scimRoute(async (_req, res, ctx, { body }) => {
  const user = await createScimUser(ctx.db, ctx.principal, body);
  sendScim(res, 201, user, { location: user.meta.location });
});
export const handleGetUser = scimRoute(async (_req, res, ctx, { params }) =>
  sendScim(res, 200, await getScimUser(ctx.db, params.id as string)),
);
export const handleReplaceUser = scimRoute(async (_req, res, ctx, { params, body }) =>
  sendScim(res, 200, await replaceScimUser(ctx.db, ctx.principal, params.id as string, body)),
);
export const handlePatchUser = scimRoute(async (_req, res, ctx, { params, body }) =>
  sendScim(res, 200, await patchScimUser(ctx.db, ctx.principal, params.id as string, body)),
);
export const handleDeleteUser = scimRoute(async (_req, res, ctx, { params }) => {
  await deleteScimUser(ctx.db, ctx.principal, params.id as string);
  sendNoContent(res);
});

export const handleListGroups = scimRoute(async (req, res, ctx) => {
  const query = scimListQuery(req);
  const page = await listScimGroups(ctx.db, query, groupView(query.excludedAttributes));
  sendScim(res, 200, listResponse(page.resources, page.totalResults, page.startIndex));
});
export const handleCreateGroup = scimRoute(async (_req, res, ctx, { body }) => {
  const group = await createScimGroup(ctx.db, ctx.principal, body);
  sendScim(res, 201, group, { location: group.meta.location });
});
export const handleGetGroup = scimRoute(async (req, res, ctx, { params }) =>
  sendScim(res, 200, await getScimGroup(ctx.db, params.id as string, groupView(scimListQuery(req).excludedAttributes))),
);
export const handleReplaceGroup = scimRoute(async (_req, res, ctx, { params, body }) =>
  sendScim(res, 200, await replaceScimGroup(ctx.db, ctx.principal, params.id as string, body, { withMembers: true })),
);
// A group's PATCH answers 200 with the group (Entra takes 200 or 204), its members left out when asked.
export const handlePatchGroup = scimRoute(async (req, res, ctx, { params, body }) =>
  sendScim(
    res,
    200,
    await patchScimGroup(ctx.db, ctx.principal, params.id as string, body, groupView(scimListQuery(req).excludedAttributes)),
  ),
);
export const handleDeleteGroup = scimRoute(async (_req, res, ctx, { params }) => {
  await deleteScimGroup(ctx.db, ctx.principal, params.id as string);
  sendNoContent(res);
});
