import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { ProjectRoleId } from "../auth/permissions.ts";
import { type Principal, principalHasPermission } from "../auth/principal.ts";
import { requireProject } from "../projects/require-project.ts";
import { toUser, type User } from "../users/user.ts";
import { PROJECT_ROLES, type Role } from "./role.ts";

/** Who holds roles in a project, as Unleash's `GET /api/admin/projects/{projectId}/access` answers it. */
export interface ProjectAccess {
  roles: Role[];
  users: (User & { roleId: ProjectRoleId; roles: ProjectRoleId[]; addedAt: Date })[];
  groups: {
    id: number;
    name: string;
    description: string | null;
    userCount: number;
    roleId: ProjectRoleId;
    roles: ProjectRoleId[];
    addedAt: Date;
    scimId?: string;
  }[];
  /** Whether the reader may change the project's access (docs/project-roles.md#project-access): Vexil's addition, for the console. */
  canChangeAccess: boolean;
}

/** docs/project-roles.md#project-access: the users and groups holding roles in `projectId`, with their roles (by id, smallest first). */
export async function getProjectAccess(db: Kysely<Database>, reader: Principal, projectId: string): Promise<ProjectAccess> {
  await requireProject(db, projectId);
  const userRows = await db
    .selectFrom("role_user")
    .innerJoin("users", "users.id", "role_user.user_id")
    .selectAll("users")
    .select(["role_user.role_id", "role_user.created_at as added_at"])
    .where("role_user.project", "=", projectId)
    .orderBy("users.id")
    .orderBy("role_user.role_id")
    .execute();
  const users: ProjectAccess["users"] = [];
  for (const { role_id, added_at, ...row } of userRows) {
    const seen = users.at(-1);
    if (seen?.id === row.id) {
      seen.roles.push(role_id as ProjectRoleId);
      if (added_at < seen.addedAt) seen.addedAt = added_at;
    } else {
      users.push({ ...toUser(row), roleId: role_id as ProjectRoleId, roles: [role_id as ProjectRoleId], addedAt: added_at });
    }
  }

  const groupRows = await db
    .selectFrom("group_role")
    .innerJoin("groups", "groups.id", "group_role.group_id")
    .select((eb) => [
      "groups.id",
      "groups.name",
      "groups.description",
      "groups.scim_id",
      "group_role.role_id",
      "group_role.created_at as added_at",
      eb
        .selectFrom("group_users")
        .select(eb.fn.countAll<string>().as("n"))
        .whereRef("group_users.group_id", "=", "groups.id")
        .as("user_count"),
    ])
    .where("group_role.project", "=", projectId)
    .orderBy("groups.id")
    .orderBy("group_role.role_id")
    .execute();
  const groups: ProjectAccess["groups"] = [];
  for (const row of groupRows) {
    const seen = groups.at(-1);
    if (seen?.id === row.id) {
      seen.roles.push(row.role_id as ProjectRoleId);
      if (row.added_at < seen.addedAt) seen.addedAt = row.added_at;
    } else {
      groups.push({
        id: row.id,
        name: row.name,
        description: row.description,
        userCount: Number(row.user_count ?? 0),
        roleId: row.role_id as ProjectRoleId,
        roles: [row.role_id as ProjectRoleId],
        addedAt: row.added_at,
        ...(row.scim_id === null ? {} : { scimId: row.scim_id }),
      });
    }
  }
  return { roles: [...PROJECT_ROLES], users, groups, canChangeAccess: principalHasPermission(reader, "UPDATE_PROJECT", projectId) };
}
