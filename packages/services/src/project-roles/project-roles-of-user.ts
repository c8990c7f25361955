import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { ProjectRoleId } from "../auth/permissions.ts";
import type { ProjectRoles } from "../auth/principal.ts";

/**
 * A user's roles in every project where they hold any, directly or through a group
 * (docs/project-roles.md#the-rule): what a credential's look-up adds to the user it stands for.
 */
export async function projectRolesOfUser(db: Kysely<Database>, userId: number): Promise<ProjectRoles> {
  const rows = await db
    .selectFrom("role_user")
    .select(["project", "role_id"])
    .where("user_id", "=", userId)
    .union(
      db
        .selectFrom("group_role")
        .innerJoin("group_users", "group_users.group_id", "group_role.group_id")
        .select(["group_role.project", "group_role.role_id"])
        .where("group_users.user_id", "=", userId),
    )
    .execute();
  const roles: Record<string, ProjectRoleId[]> = {};
  for (const row of rows) (roles[row.project] ??= []).push(row.role_id as ProjectRoleId);
  for (const held of Object.values(roles)) held.sort((a, b) => a - b);
  return roles;
}
