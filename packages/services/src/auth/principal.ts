import {
  PROJECT_PERMISSIONS,
  type Permission,
  type ProjectRoleId,
  projectRoleHasPermission,
  RootRole,
  type RootRoleId,
  roleHasPermission,
} from "./permissions.ts";

/** A user's roles per project, direct and through groups (docs/project-roles.md#the-rule); absent where none. */
export type ProjectRoles = Readonly<Record<string, readonly ProjectRoleId[]>>;

/** Who is calling: a person (by session or personal token) or an API token. */
export type Principal =
  | {
      kind: "user";
      userId: number;
      username: string;
      rootRole: RootRoleId;
      via: "session" | "personal-token";
      sessionId?: string;
      /** A session started with the default admin password: it may only change it. */
      passwordChangeRequired?: true;
      /** The personal access token it came with, when it did. */
      tokenId?: number;
      /** The user's project roles when the credential was looked up; undefined (as for a login's own record) means none. */
      projectRoles?: ProjectRoles;
    }
  | { kind: "admin-token"; tokenId: number; tokenName: string }
  /** An identity provider's token: good for SCIM provisioning (`/scim/v2`) and nothing else (docs/scim.md). */
  | { kind: "scim-token"; tokenId: number; tokenName: string }
  | {
      /** A token an SDK holds: a server-side SDK's (`client`) or a browser's (`frontend`). */
      kind: "sdk-token";
      tokenId: number;
      tokenName: string;
      type: "client" | "frontend";
      /** The projects it is served, `["*"]` for all, and the one environment. */
      projects: string[];
      environment: string;
    };

/**
 * Whether the caller holds `permission`, in `project` when the action is within one. There a user's
 * project roles, where they hold any, decide the project's permissions; elsewhere, and for every
 * other permission, the root role does; a root Admin holds everything (docs/project-roles.md#the-rule).
 */
export function principalHasPermission(principal: Principal, permission: Permission, project?: string): boolean {
  switch (principal.kind) {
    case "admin-token":
      return true;
    case "sdk-token":
    case "scim-token":
      return false;
    case "user": {
      if (principal.rootRole === RootRole.Admin) return true;
      const roles = projectRolesDeciding(principal, permission, project);
      if (roles) return roles.some((role) => projectRoleHasPermission(role, permission));
      return roleHasPermission(principal.rootRole, permission);
    }
  }
}

/** The caller's roles in `project` when they decide `permission` there (a non-Admin user holding any); else null. */
export function projectRolesDeciding(
  principal: Principal,
  permission: Permission,
  project: string | undefined,
): readonly ProjectRoleId[] | null {
  if (principal.kind !== "user" || principal.rootRole === RootRole.Admin || project === undefined) return null;
  if (!PROJECT_PERMISSIONS.has(permission)) return null;
  const roles = principal.projectRoles?.[project];
  return roles && roles.length > 0 ? roles : null;
}

export function isAdmin(principal: Principal): boolean {
  return principal.kind === "admin-token" || (principal.kind === "user" && principal.rootRole === RootRole.Admin);
}

/** The name events record as `createdBy`. */
export function actorName(principal: Principal | null): string {
  if (!principal) return "system";
  return principal.kind === "user" ? principal.username : principal.tokenName;
}

export function actorUserId(principal: Principal | null): number | null {
  return principal?.kind === "user" ? principal.userId : null;
}
