import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { ProjectRoleId } from "../auth/permissions.ts";
import { actorName, type Principal } from "../auth/principal.ts";
import { NotFoundError, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { requireProject } from "../projects/require-project.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { isProjectRoleId } from "./role.ts";

// docs/project-roles.md#project-access: who may call these (Admins, the project's Owners) is the
// UPDATE_PROJECT permission in the project, checked at the edge as every permission is; the
// commands check the rest: the role, the project, the users and groups named.

export interface ProjectRoleGrant {
  projectId: string;
  roleId: number;
  users: { id: number }[];
  groups: { id: number }[];
}

/** Gives one role in a project to users and groups, keeping the roles they hold already (Unleash's addRoleAccessToProject). */
export async function addProjectRoleAccess(db: Kysely<Database>, by: Principal, grant: ProjectRoleGrant): Promise<void> {
  await inTransaction(db, async (trx) => {
    await requireProject(trx, grant.projectId);
    if (!isProjectRoleId(grant.roleId)) throw roleNotFound(grant.roleId);
    const userIds = unique(grant.users.map((u) => u.id));
    const groupIds = unique(grant.groups.map((g) => g.id));
    await requireAll(trx, "user", userIds);
    await requireAll(trx, "group", groupIds);
    const common = { project: grant.projectId, role_id: grant.roleId, created_by: actorName(by) };
    if (userIds.length > 0) {
      await trx
        .insertInto("role_user")
        .values(userIds.map((user_id) => ({ ...common, user_id })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    if (groupIds.length > 0) {
      await trx
        .insertInto("group_role")
        .values(groupIds.map((group_id) => ({ ...common, group_id })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await appendEvent(trx, by, {
      type: "project-access-added",
      project: grant.projectId,
      data: { roleId: grant.roleId, users: userIds, groups: groupIds },
    });
  });
}

/** Who holds roles: a user or a group, named by the path. */
export interface ProjectRoleHolder {
  projectId: string;
  kind: "user" | "group";
  id: number;
}

/** Replaces a user's or a group's roles in a project with `roles` (none removes them all): Unleash's setUserRoles and setGroupRoles. */
export async function setProjectRoles(db: Kysely<Database>, by: Principal, holder: ProjectRoleHolder, roles: number[]): Promise<void> {
  // The body's own rule, before any look-up (docs/errors.md#check-order).
  roles.forEach((role, i) => {
    if (!isProjectRoleId(role)) {
      throw new ValidationError(`${role} is not a project role; the project roles are 4 (Owner), 5 (Member) and 6 (Viewer).`, [
        { path: `roles.${i}`, message: "not a project role" },
      ]);
    }
  });
  const wanted = unique(roles as ProjectRoleId[]);
  await inTransaction(db, async (trx) => {
    await requireHolder(trx, holder);
    const before = await replaceRoles(trx, holder, wanted, actorName(by));
    await appendEvent(trx, by, {
      type: `project-access-${holder.kind}-roles-updated`,
      project: holder.projectId,
      preData: { [`${holder.kind}Id`]: holder.id, roles: before },
      data: { [`${holder.kind}Id`]: holder.id, roles: wanted },
    });
  });
}

/** Takes every role in a project from a user or a group (Unleash's removeUserAccess and removeGroupAccess). */
export async function removeProjectRoles(db: Kysely<Database>, by: Principal, holder: ProjectRoleHolder): Promise<void> {
  await inTransaction(db, async (trx) => {
    await requireHolder(trx, holder);
    const before = await replaceRoles(trx, holder, [], actorName(by));
    await appendEvent(trx, by, {
      type: `project-access-${holder.kind}-roles-deleted`,
      project: holder.projectId,
      preData: { [`${holder.kind}Id`]: holder.id, roles: before },
      data: null,
    });
  });
}

async function replaceRoles(trx: Transaction<Database>, holder: ProjectRoleHolder, roles: ProjectRoleId[], by: string): Promise<number[]> {
  if (holder.kind === "user") {
    const removed = await trx
      .deleteFrom("role_user")
      .where("project", "=", holder.projectId)
      .where("user_id", "=", holder.id)
      .returning("role_id")
      .execute();
    if (roles.length > 0) {
      await trx
        .insertInto("role_user")
        .values(roles.map((role_id) => ({ project: holder.projectId, user_id: holder.id, role_id, created_by: by })))
        .execute();
    }
    return removed.map((r) => r.role_id).sort((a, b) => a - b);
  }
  const removed = await trx
    .deleteFrom("group_role")
    .where("project", "=", holder.projectId)
    .where("group_id", "=", holder.id)
    .returning("role_id")
    .execute();
  if (roles.length > 0) {
    await trx
      .insertInto("group_role")
      .values(roles.map((role_id) => ({ project: holder.projectId, group_id: holder.id, role_id, created_by: by })))
      .execute();
  }
  return removed.map((r) => r.role_id).sort((a, b) => a - b);
}

async function requireHolder(trx: Transaction<Database>, holder: ProjectRoleHolder): Promise<void> {
  await requireProject(trx, holder.projectId);
  const [found] = await existing(trx, holder.kind, [holder.id]);
  if (found === undefined) throw new NotFoundError(`There is no ${holder.kind} with id ${holder.id}.`);
}

/** Users or groups a body names must exist: a 400 naming the first that does not. */
async function requireAll(trx: Transaction<Database>, kind: "user" | "group", ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const found = new Set(await existing(trx, kind, ids));
  const missing = ids.find((id) => !found.has(id));
  if (missing === undefined) return;
  throw new ValidationError(`There is no ${kind} with id ${missing}.`, [{ path: `${kind}s`, message: `no ${kind} ${missing}` }]);
}

/** Which of these ids are users (or groups). */
async function existing(trx: Transaction<Database>, kind: "user" | "group", ids: number[]): Promise<number[]> {
  const rows =
    kind === "user"
      ? await trx.selectFrom("users").select("id").where("id", "in", ids).execute()
      : await trx.selectFrom("groups").select("id").where("id", "in", ids).execute();
  return rows.map((r) => r.id);
}

function roleNotFound(roleId: number): NotFoundError {
  return new NotFoundError(`There is no project role with id ${roleId}; the project roles are 4 (Owner), 5 (Member) and 6 (Viewer).`);
}

function unique<T extends number>(values: T[]): T[] {
  return [...new Set(values)].sort((a, b) => a - b);
}
