import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { PERMISSIONS, type Permission } from "../auth/permissions.ts";
import { type Principal, principalHasPermission } from "../auth/principal.ts";
import { requireProject } from "../projects/require-project.ts";

/** What the caller may do in one project: the server's answer, which the console renders (docs/project-roles.md#what-you-may-do). */
interface PermissionsInProject {
  project: string;
  /** Every permission the caller holds there, by the same check every route passes, in the order of PERMISSIONS. */
  permissions: Permission[];
}

/** docs/project-roles.md#what-you-may-do: the permissions `reader` holds in `projectId` (404 for an unknown project). */
export async function permissionsInProject(db: Kysely<Database>, reader: Principal, projectId: string): Promise<PermissionsInProject> {
  await requireProject(db, projectId);
  return { project: projectId, permissions: PERMISSIONS.filter((permission) => principalHasPermission(reader, permission, projectId)) };
}
