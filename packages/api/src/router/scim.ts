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
} from "@vexil/services";
import { z } from "zod";
import { listResponse, RESOURCE_TYPES, SCHEMAS, SERVICE_PROVIDER_CONFIG } from "../scim/scim-discovery.ts";
import { SCIM_MEDIA_TYPE, scimFailureBody, scimFailureSchema } from "../scim/scim-failure.ts";
import {
  groupView,
  handleCreateGroup,
  handleCreateUser,
  handleDeleteGroup,
  handleDeleteUser,
  handleGetGroup,
  handleGetUser,
  handleListGroups,
  handleListUsers,
  handlePatchGroup,
  handlePatchUser,
  handleReplaceGroup,
  handleReplaceUser,
  handleResourceTypes,
  handleSchemas,
  handleServiceProviderConfig,
} from "../scim/scim-handlers.ts";
import {
  scimDocumentSchema,
  scimGroupInputShape,
  scimGroupSchema,
  scimListSchema,
  scimListShape,
  scimPatchShape,
  scimUserInputShape,
  scimUserSchema,
} from "../schemas/scim.ts";
import { toJson } from "../schemas/to-json.ts";
import { type Meta, protectedProcedure, type RawHandler } from "../trpc.ts";

const tags = ["SCIM provisioning"];
const BASE = "/scim/v2";
const id = { id: z.string().min(1).max(320).meta({ description: "The SCIM id Vexil gave the resource" }) };

/** Every SCIM route over REST: its raw handler, SCIM's media type and SCIM's error body. */
const raw = (serve: RawHandler) => ({ serve, failureBody: scimFailureBody, failureSchema: scimFailureSchema, mediaType: SCIM_MEDIA_TYPE });
const meta = (
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  summary: string,
  serve: RawHandler,
  description?: string,
): Meta => ({
  openapi: { method, path: `${BASE}${path}` as `/${string}`, tags, summary, ...(description ? { description } : {}) },
  access: "scim" as const,
  raw: raw(serve),
});

// SCIM 2.0 provisioning for identity providers (RFC 7643 and 7644; docs/scim.md): only a SCIM
// token reaches these routes, and it reaches nothing else. Over REST each route answers in SCIM's
// bodies and media type; over tRPC the procedures answer the same resources.
export const scimRouter = {
  serviceProviderConfig: protectedProcedure
    .meta(meta("GET", "/ServiceProviderConfig", "What Vexil's SCIM service supports", handleServiceProviderConfig))
    .input(z.object({}).optional())
    .output(scimDocumentSchema)
    .query(() => SERVICE_PROVIDER_CONFIG),

  resourceTypes: protectedProcedure
    .meta(meta("GET", "/ResourceTypes", "The resource types: User and Group", handleResourceTypes))
    .input(z.object({}).optional())
    .output(scimDocumentSchema)
    .query(() => RESOURCE_TYPES),

  schemas: protectedProcedure
    .meta(meta("GET", "/Schemas", "The attributes Vexil keeps of users and groups", handleSchemas))
    .input(z.object({}).optional())
    .output(scimDocumentSchema)
    .query(() => SCHEMAS),

  listUsers: protectedProcedure
    .meta({
      ...meta(
        "GET",
        "/Users",
        "List provisioned users",
        handleListUsers,
        'As identity providers look a user up before creating it: `filter=userName eq "..."`.',
      ),
      failures: ["ValidationError"],
    })
    .input(z.object(scimListShape).optional())
    .output(scimListSchema(scimUserSchema))
    .query(async ({ ctx, input }) => {
      const page = await listScimUsers(ctx.db, input ?? {});
      return toJson(listResponse(page.resources, page.totalResults, page.startIndex));
    }),

  createUser: protectedProcedure
    .meta({
      ...meta(
        "POST",
        "/Users",
        "Provision a user",
        handleCreateUser,
        "A Viewer without a password, who signs in through the identity provider.",
      ),
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(z.looseObject(scimUserInputShape))
    .output(scimUserSchema)
    .mutation(async ({ ctx, input }) => toJson(await createScimUser(ctx.db, ctx.principal, input))),

  getUser: protectedProcedure
    .meta(meta("GET", "/Users/{id}", "A provisioned user", handleGetUser))
    .input(z.object(id))
    .output(scimUserSchema)
    .query(async ({ ctx, input }) => toJson(await getScimUser(ctx.db, input.id))),

  replaceUser: protectedProcedure
    .meta({ ...meta("PUT", "/Users/{id}", "Replace a provisioned user", handleReplaceUser), failures: ["NameExistsError"] })
    .input(z.looseObject({ ...scimUserInputShape, ...id }))
    .output(scimUserSchema)
    .mutation(async ({ ctx, input: { id: scimId, ...body } }) => toJson(await replaceScimUser(ctx.db, ctx.principal, scimId, body))),

  patchUser: protectedProcedure
    .meta({
      ...meta(
        "PATCH",
        "/Users/{id}",
        "Change a provisioned user (a PatchOp)",
        handlePatchUser,
        "`active: false` ends the user's sessions and tokens at once, on every instance.",
      ),
      failures: ["NameExistsError"],
    })
    .input(z.object({ ...scimPatchShape, ...id }))
    .output(scimUserSchema)
    .mutation(async ({ ctx, input: { id: scimId, ...body } }) => toJson(await patchScimUser(ctx.db, ctx.principal, scimId, body))),

  deleteUser: protectedProcedure
    .meta({ ...meta("DELETE", "/Users/{id}", "Deprovision a user", handleDeleteUser), successStatus: 204 })
    .input(z.object(id))
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await deleteScimUser(ctx.db, ctx.principal, input.id);
      return {};
    }),

  listGroups: protectedProcedure
    .meta({
      ...meta(
        "GET",
        "/Groups",
        "List provisioned groups",
        handleListGroups,
        'Filters on `displayName eq "..."`; `excludedAttributes=members` leaves members out.',
      ),
      failures: ["ValidationError"],
    })
    .input(z.object(scimListShape).optional())
    .output(scimListSchema(scimGroupSchema))
    .query(async ({ ctx, input }) => {
      const page = await listScimGroups(ctx.db, input ?? {}, groupView(input?.excludedAttributes));
      return toJson(listResponse(page.resources, page.totalResults, page.startIndex));
    }),

  createGroup: protectedProcedure
    .meta({
      ...meta("POST", "/Groups", "Provision a group with its members", handleCreateGroup),
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(z.looseObject(scimGroupInputShape))
    .output(scimGroupSchema)
    .mutation(async ({ ctx, input }) => toJson(await createScimGroup(ctx.db, ctx.principal, input))),

  getGroup: protectedProcedure
    .meta(meta("GET", "/Groups/{id}", "A provisioned group", handleGetGroup))
    .input(z.object({ ...id, excludedAttributes: scimListShape.excludedAttributes }))
    .output(scimGroupSchema)
    .query(async ({ ctx, input }) => toJson(await getScimGroup(ctx.db, input.id, groupView(input.excludedAttributes)))),

  replaceGroup: protectedProcedure
    .meta({
      ...meta("PUT", "/Groups/{id}", "Replace a provisioned group and its members", handleReplaceGroup),
      failures: ["NameExistsError"],
    })
    .input(z.looseObject({ ...scimGroupInputShape, ...id }))
    .output(scimGroupSchema)
    .mutation(async ({ ctx, input: { id: scimId, ...body } }) =>
      toJson(await replaceScimGroup(ctx.db, ctx.principal, scimId, body, { withMembers: true })),
    ),

  patchGroup: protectedProcedure
    .meta({
      ...meta("PATCH", "/Groups/{id}", "Change a provisioned group (a PatchOp): members added and removed, a rename", handlePatchGroup),
      failures: ["NameExistsError"],
    })
    .input(z.object({ ...scimPatchShape, ...id }))
    .output(scimGroupSchema)
    .mutation(async ({ ctx, input: { id: scimId, ...body } }) =>
      toJson(await patchScimGroup(ctx.db, ctx.principal, scimId, body, { withMembers: true })),
    ),

  deleteGroup: protectedProcedure
    .meta({ ...meta("DELETE", "/Groups/{id}", "Deprovision a group", handleDeleteGroup), successStatus: 204 })
    .input(z.object(id))
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await deleteScimGroup(ctx.db, ctx.principal, input.id);
      return {};
    }),
};
