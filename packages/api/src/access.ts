import {
  AuthenticationRequired,
  NoAccessError,
  type Permission,
  type Principal,
  PROJECT_PERMISSIONS,
  principalHasPermission,
  projectOfFeature,
  projectRolesDeciding,
} from "@vexil/services";
import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";

/**
 * Who may call a procedure: anyone, anyone authenticated, holders of one permission, an SDK
 * (a client token, or an admin token) on the client API, or a browser app (a frontend token, or
 * an admin token, as in Unleash) on the frontend API, or either SDK token (or an admin token) on
 * OFREP, or an identity provider's SCIM token (and nothing else) on SCIM.
 */
export type Access = "public" | "authenticated" | "client" | "frontend" | "sdk" | "scim" | Permission;

/** Where a call acts: the environment and the project its path (or, over tRPC, its input) names. */
export interface AccessScope {
  environment?: string | undefined;
  projectId?: string | undefined;
  /**
   * The project is named in a body not read yet (an import's `project`): the check before the body
   * lets through whoever holds the permission in some project, and the procedure's check, which
   * reads the body, decides in the project named (docs/project-roles.md#which-routes).
   */
  projectInBody?: true;
}

/**
 * The scope a call's input names: its `environment` and `projectId` fields, when they are strings;
 * a route whose project is a body field (`projectField`) reads the project there.
 */
function accessScopeOf(input: unknown, projectField = "projectId"): AccessScope {
  const scope = projectField === "projectId" ? {} : { projectInBody: true as const };
  if (input === null || typeof input !== "object") return scope;
  const { environment, [projectField]: projectId } = input as Record<string, unknown>;
  if (typeof projectId === "string") return { environment: typeof environment === "string" ? environment : undefined, projectId };
  return { ...scope, environment: typeof environment === "string" ? environment : undefined };
}

/**
 * The scope of a call whose input names a flag but not its project (`/api/admin/archive/{featureName}`,
 * a flag's tags): the flag's project, looked up only for a caller whose project roles could decide the
 * route's permission (docs/project-roles.md#which-routes); every other call's scope is known at once.
 */
export function accessScopeFor(
  db: Kysely<Database>,
  principal: Principal | null,
  access: Access,
  input: unknown,
  projectField?: string,
): AccessScope | Promise<AccessScope> {
  const scope = accessScopeOf(input, projectField);
  if (scope.projectId !== undefined || !mayBeDecidedByProjectRoles(principal, access)) return scope;
  const featureName = (input as { featureName?: unknown } | null | undefined)?.featureName;
  if (typeof featureName !== "string") return scope;
  return projectOfFeature(db, featureName).then((projectId) => ({ ...scope, projectId: projectId ?? undefined }));
}

function mayBeDecidedByProjectRoles(principal: Principal | null, access: Access): boolean {
  if (principal?.kind !== "user" || !principal.projectRoles || !PROJECT_PERMISSIONS.has(access as Permission)) return false;
  return Object.keys(principal.projectRoles).length > 0;
}

// A missing credential and a refused one are told apart, so that a caller knows whether to send one or to replace it.
const REFUSED = {
  none: "You must log in or provide a valid API token to use this resource.",
  token: "The API token sent is not valid: it is unknown, expired or revoked. Send a valid token in the Authorization header.",
  session: "Your session has ended or is not valid: log in again.",
};

/**
 * Throws the 401 or 403 of docs/errors.md#check-order, once a call: the REST bridge calls it before it
 * reads a body (so that 401 and 403 come before 415, 413 and 400), and a protected procedure calls it
 * when the bridge did not (over tRPC, or when the project is named only in the body). In a project, the caller's project roles
 * decide its permissions where they hold any (docs/project-roles.md#the-rule), here for every route at once.
 */
export function checkAccess(
  principal: Principal | null,
  access: Access,
  scope: AccessScope = {},
  beforePasswordChange = false,
  refusedCredential?: "token" | "session",
): asserts principal is Principal {
  const { environment, projectId } = scope;
  if (access === "public") return;
  if (!principal) throw new AuthenticationRequired(REFUSED[refusedCredential ?? "none"]);
  if (principal.kind === "user" && principal.passwordChangeRequired && !beforePasswordChange) {
    throw new NoAccessError("You logged in with the default password: change it first (POST /api/admin/user/change-password).");
  }
  // A SCIM token provisions users and groups, and does nothing else; nothing else provisions (docs/scim.md#the-scim-token).
  if (access === "scim") {
    if (principal.kind === "scim-token") return;
    throw new NoAccessError(
      "SCIM provisioning takes a SCIM token (an Admin creates one with the type scim); this credential cannot use it.",
    );
  }
  if (principal.kind === "scim-token") throw new NoAccessError("A SCIM token is good for SCIM provisioning (/scim/v2) only.");
  if (access === "client") {
    if (principal.kind === "admin-token" || (principal.kind === "sdk-token" && principal.type === "client")) return;
    throw new NoAccessError("The client API takes a client token (or an admin token); this one cannot use it.");
  }
  if (access === "frontend") {
    if (principal.kind === "admin-token" || (principal.kind === "sdk-token" && principal.type === "frontend")) return;
    throw new NoAccessError("The frontend API takes a frontend token (or an admin token); this one cannot use it.");
  }
  if (access === "sdk") {
    // OpenFeature's providers: a server one holds a client token, a browser one a frontend token (docs/ofrep.md#ofrep).
    if (principal.kind === "admin-token" || principal.kind === "sdk-token") return;
    throw new NoAccessError("OFREP takes a client or frontend token (or an admin token); this one cannot use it.");
  }
  if (principal.kind === "sdk-token") {
    // The 403 names the missing permission (docs/errors.md#no-access); an SDK token (client or frontend) holds none of them.
    const why = `A ${principal.type} token cannot use the admin API; use an admin token or a personal access token.`;
    throw access === "authenticated" ? new NoAccessError(why) : NoAccessError.forPermission(access, environment, why);
  }
  if (access === "authenticated") return;
  if (scope.projectInBody && projectId === undefined && holdsInSomeProject(principal, access)) return;
  if (!principalHasPermission(principal, access, projectId)) {
    const decidedIn = projectRolesDeciding(principal, access, projectId) ? projectId : undefined;
    throw NoAccessError.forPermission(access, environment, undefined, decidedIn);
  }
}

/** Whether the caller's project roles grant `permission` in at least one project (docs/project-roles.md#which-routes). */
function holdsInSomeProject(principal: Principal, permission: Permission): boolean {
  if (principal.kind !== "user" || !principal.projectRoles) return false;
  return Object.keys(principal.projectRoles).some((project) => principalHasPermission(principal, permission, project));
}
