import { addProjectRoleAccess, getProjectAccess, permissionsInProject, removeProjectRoles, ROLES, setProjectRoles } from "@vexil/services";
import { z } from "zod";
import {
  permissionsInProjectSchema,
  projectAccessSchema,
  projectRolesShape,
  roleGrantShape,
  roleSchema,
} from "../schemas/project-access.ts";
import { recordIdSchema } from "../schemas/record-id.ts";
import { toJson } from "../schemas/to-json.ts";
import { okSchema } from "../schemas/user.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Projects"];
const PATH = "/api/admin/projects/{projectId}";
const projectId = z.string().meta({ description: "The project's id" });

/** Who may change a project's access: Admins and the project's Owners (docs/project-roles.md#project-access). */
const access = "UPDATE_PROJECT";

const userId = recordIdSchema("User id");
const groupId = recordIdSchema("Group id");

/** The OpenAPI description of setting (PUT) or removing (DELETE) a user's or a group's roles in a project. */
function holderOperation(method: "PUT" | "DELETE", kind: "user" | "group") {
  const path: `/${string}` = kind === "user" ? `${PATH}/users/{userId}/roles` : `${PATH}/groups/{groupId}/roles`;
  return method === "PUT"
    ? {
        method,
        path,
        tags,
        summary: `Set a ${kind}'s roles in a project`,
        description: `Replaces the ${kind}'s project roles with \`roles\` (an empty list removes them all); a project-access-${kind}-roles-updated event records before and after.`,
      }
    : {
        method,
        path,
        tags,
        summary: `Remove a ${kind}'s access to a project`,
        description: `Takes every role in the project from the ${kind}; a project-access-${kind}-roles-deleted event records them.`,
      };
}

// Unleash's project access (docs/project-roles.md#project-access) and its role list.
export const projectAccessRouter = {
  roles: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/roles", tags: ["Users"], summary: "List roles: the root roles and the project roles" },
      access: "authenticated",
    })
    .input(z.object({}).optional())
    .output(z.object({ version: z.literal(1), roles: z.array(roleSchema) }))
    .query(() => ({ version: 1 as const, roles: [...ROLES] })),

  get: protectedProcedure
    .meta({
      openapi: { method: "GET", path: `${PATH}/access`, tags, summary: "Users and groups with roles in a project" },
      access: "authenticated",
    })
    .input(z.object({ projectId }))
    .output(projectAccessSchema)
    .query(async ({ ctx, input }) => toJson(await getProjectAccess(ctx.db, ctx.principal, input.projectId))),

  // Vexil's: the server says what the caller may do in a project, and the console renders it (docs/project-roles.md#what-you-may-do).
  permissions: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: `${PATH}/permissions`,
        tags,
        summary: "What you may do in a project",
        description:
          "The permissions the caller holds in the project: a user's project roles there where they hold any, else the root role; an admin token holds all. 404 for an unknown project.",
      },
      access: "authenticated",
    })
    .input(z.object({ projectId }))
    .output(permissionsInProjectSchema)
    .query(async ({ ctx, input }) => permissionsInProject(ctx.db, ctx.principal, input.projectId)),

  addRoleAccess: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `${PATH}/role/{roleId}/access`,
        tags,
        summary: "Give a project role to users and groups",
        description:
          "Adds the role to each user and group named (roles they hold already stay); a project-access-added event records it. A user or group that does not exist is a 400 and nothing changes.",
      },
      access,
    })
    .input(z.strictObject({ projectId, roleId: recordIdSchema("Project role id (4 Owner, 5 Member, 6 Viewer)"), ...roleGrantShape }))
    .output(okSchema)
    .mutation(async ({ ctx, input }) => {
      await addProjectRoleAccess(ctx.db, ctx.principal, input);
      return {};
    }),

  setUserRoles: protectedProcedure
    .meta({ openapi: holderOperation("PUT", "user"), access })
    .input(z.strictObject({ projectId, userId, ...projectRolesShape }))
    .output(okSchema)
    .mutation(async ({ ctx, input }) => {
      await setProjectRoles(ctx.db, ctx.principal, { projectId: input.projectId, kind: "user", id: input.userId }, input.roles);
      return {};
    }),

  removeUserAccess: protectedProcedure
    .meta({ openapi: holderOperation("DELETE", "user"), access })
    .input(z.strictObject({ projectId, userId }))
    .output(okSchema)
    .mutation(async ({ ctx, input }) => {
      await removeProjectRoles(ctx.db, ctx.principal, { projectId: input.projectId, kind: "user", id: input.userId });
      return {};
    }),

  setGroupRoles: protectedProcedure
    .meta({ openapi: holderOperation("PUT", "group"), access })
    .input(z.strictObject({ projectId, groupId, ...projectRolesShape }))
    .output(okSchema)
    .mutation(async ({ ctx, input }) => {
      await setProjectRoles(ctx.db, ctx.principal, { projectId: input.projectId, kind: "group", id: input.groupId }, input.roles);
      return {};
    }),

  removeGroupAccess: protectedProcedure
    .meta({ openapi: holderOperation("DELETE", "group"), access })
    .input(z.strictObject({ projectId, groupId }))
    .output(okSchema)
    .mutation(async ({ ctx, input }) => {
      await removeProjectRoles(ctx.db, ctx.principal, { projectId: input.projectId, kind: "group", id: input.groupId });
      return {};
    }),
};
