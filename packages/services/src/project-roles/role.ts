import { ProjectRole, type ProjectRoleId, RootRole } from "../auth/permissions.ts";

/** A role as Unleash's `GET /api/admin/roles` shows it: the three root roles and the three project roles. */
export interface Role {
  id: number;
  name: string;
  type: "root" | "project";
  description: string;
  project: null;
}

/** Every role, by id (docs/project-roles.md#roles); Unleash's names, types and descriptions. */
export const ROLES: readonly Role[] = [
  {
    id: RootRole.Admin,
    name: "Admin",
    type: "root",
    description:
      "Users with the root admin role have superuser access to Unleash and can perform any operation within the Unleash platform.",
    project: null,
  },
  {
    id: RootRole.Editor,
    name: "Editor",
    type: "root",
    description: "Users with the root editor role have access to most features, but can not manage users, roles, projects or API tokens.",
    project: null,
  },
  {
    id: RootRole.Viewer,
    name: "Viewer",
    type: "root",
    description:
      "Users with the root viewer role can only read root resources in Unleash. Viewers can be added to specific projects as project members. Users with the viewer role may not view API tokens.",
    project: null,
  },
  {
    id: ProjectRole.Owner,
    name: "Owner",
    type: "project",
    description:
      "Users with the project owner role have full control over the project, and can add and manage other users within the project context, manage feature flags within the project, and control advanced project features like archiving and deleting the project.",
    project: null,
  },
  {
    id: ProjectRole.Member,
    name: "Member",
    type: "project",
    description:
      "Users with the project member role are allowed to view, create, and update feature flags within a project, but have limited permissions in regards to managing the project's user access and can not archive or delete the project.",
    project: null,
  },
  {
    id: ProjectRole.Viewer,
    name: "Viewer",
    type: "project",
    description: "Users with the project viewer role can view the project and its feature flags, but cannot change anything in it.",
    project: null,
  },
];

export const PROJECT_ROLES: readonly Role[] = ROLES.filter((role) => role.type === "project");

export function isProjectRoleId(id: number): id is ProjectRoleId {
  return PROJECT_ROLES.some((role) => role.id === id);
}
