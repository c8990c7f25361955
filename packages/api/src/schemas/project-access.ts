import { PERMISSIONS } from "@vexil/services";
import { z } from "zod";
import { userSchema } from "./user.ts";

/** Largest id a Postgres `integer` column holds: beyond it no user or group exists, and Postgres would refuse the parameter. */
const INTEGER_ID_MAX = 2_147_483_647;

const bodyId = z.number().int().min(1).max(INTEGER_ID_MAX);

export const roleSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    type: z.enum(["root", "project"]),
    description: z.string(),
    project: z.null(),
  })
  .meta({ id: "Role" });

const projectRoleIdsSchema = z.array(z.number().int()).meta({ description: "Project role ids: 4 Owner, 5 Member, 6 Viewer" });

export const projectAccessSchema = z
  .object({
    roles: z.array(roleSchema),
    users: z.array(z.object({ ...userSchema.shape, roleId: z.number().int(), roles: projectRoleIdsSchema, addedAt: z.iso.datetime() })),
    groups: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        description: z.string().nullable(),
        userCount: z.number().int(),
        roleId: z.number().int(),
        roles: projectRoleIdsSchema,
        addedAt: z.iso.datetime(),
        scimId: z.string().optional().meta({ description: "Present only on a group an identity provider provisioned over SCIM" }),
      }),
    ),
    canChangeAccess: z.boolean().meta({
      description: "Whether the caller may change this project's access (an Admin or an Owner of it); Vexil's addition to Unleash's body",
    }),
  })
  .meta({ id: "ProjectAccess" });

export const roleGrantShape = {
  users: z
    .array(z.strictObject({ id: bodyId }))
    .max(1000)
    .default([])
    .meta({ description: "Users to give the role, by id (at most 1000)" }),
  groups: z
    .array(z.strictObject({ id: bodyId }))
    .max(1000)
    .default([])
    .meta({ description: "Groups to give the role, by id (at most 1000)" }),
};

export const projectRolesShape = {
  roles: z
    .array(z.number().int().min(0).max(INTEGER_ID_MAX))
    .max(10)
    .meta({ description: "The project role ids the user or group is to hold there (4 Owner, 5 Member, 6 Viewer); [] removes them all" }),
};

export const permissionsInProjectSchema = z
  .object({
    project: z.string(),
    permissions: z.array(z.enum(PERMISSIONS)).meta({
      description:
        "Every permission the caller holds in the project, by the rule every route is checked by (project roles, then the root role)",
    }),
  })
  .meta({ id: "PermissionsInProject" });
