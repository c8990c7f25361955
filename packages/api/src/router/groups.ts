import { getGroup, listGroups } from "@vexil/services";
import { z } from "zod";
import { recordIdSchema } from "../schemas/record-id.ts";
import { toJson } from "../schemas/to-json.ts";
import { userSchema } from "../schemas/user.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Groups"];

const groupSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    mappingsSSO: z.array(z.string()),
    rootRole: z.number().int().nullable(),
    createdBy: z.string().nullable(),
    createdAt: z.iso.datetime(),
    userCount: z.number().int(),
    users: z.array(z.object({ user: userSchema, joinedAt: z.iso.datetime(), createdBy: z.string().nullable() })),
    scimId: z.string().optional().meta({ description: "Present only on a group an identity provider provisioned over SCIM" }),
  })
  .meta({ id: "Group" });

// Unleash's group reads (docs/scim.md#groups); groups are made and changed by an identity provider, over SCIM or at sign-in (docs/oidc.md#groups).
export const groupsRouter = {
  list: protectedProcedure
    .meta({ openapi: { method: "GET", path: "/api/admin/groups", tags, summary: "List groups with their members" }, access: "ADMIN" })
    .input(z.object({}).optional())
    .output(z.object({ groups: z.array(groupSchema) }))
    .query(async ({ ctx }) => ({ groups: toJson(await listGroups(ctx.db)) })),

  get: protectedProcedure
    .meta({ openapi: { method: "GET", path: "/api/admin/groups/{groupId}", tags, summary: "A group with its members" }, access: "ADMIN" })
    .input(z.object({ groupId: recordIdSchema("Group id") }))
    .output(groupSchema)
    .query(async ({ ctx, input }) => toJson(await getGroup(ctx.db, input.groupId))),
};
