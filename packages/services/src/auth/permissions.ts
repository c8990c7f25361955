/** Root roles as Unleash numbers them. */
export const RootRole = { Admin: 1, Editor: 2, Viewer: 3 } as const;
export type RootRoleId = (typeof RootRole)[keyof typeof RootRole];

/** Project roles as Unleash numbers them (docs/project-roles.md#roles): held by a user or a group in one project. */
export const ProjectRole = { Owner: 4, Member: 5, Viewer: 6 } as const;
export type ProjectRoleId = (typeof ProjectRole)[keyof typeof ProjectRole];

/** Creating flags, their variants, and change requests: Editors' everywhere, Members' in their project. */
const CONTRIBUTOR_PERMISSIONS = [
  "CREATE_FEATURE",
  "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
  "APPROVE_CHANGE_REQUEST",
  "APPLY_CHANGE_REQUEST",
] as const;

/** What editors may do to a flag (docs/auth.md#roles-and-permissions): Unleash's permission names. */
const FLAG_PERMISSIONS = [
  "UPDATE_FEATURE",
  "UPDATE_FEATURE_ENVIRONMENT",
  "CREATE_FEATURE_STRATEGY",
  "UPDATE_FEATURE_STRATEGY",
  "DELETE_FEATURE_STRATEGY",
  "UPDATE_FEATURE_DEPENDENCY",
] as const;

// Archiving a flag and deleting an archived one for good (docs/flag-lifecycle.md#archive-revive-delete).
const FLAG_MODEL_PERMISSIONS = [...FLAG_PERMISSIONS, "CREATE_SEGMENT", "UPDATE_SEGMENT", "DELETE_SEGMENT", "DELETE_FEATURE"] as const;

/** Tag types are Editors' in Unleash (its role Editor holds these three). */
const TAG_TYPE_PERMISSIONS = ["CREATE_TAG_TYPE", "UPDATE_TAG_TYPE", "DELETE_TAG_TYPE"] as const;

/** Context fields are Editors' too (its role Editor holds these three in Unleash; docs/context-fields.md). */
const CONTEXT_FIELD_PERMISSIONS = ["CREATE_CONTEXT_FIELD", "UPDATE_CONTEXT_FIELD", "DELETE_CONTEXT_FIELD"] as const;

export const PERMISSIONS = [
  "ADMIN",
  "UPDATE_INSTANCE_BANNERS",
  ...CONTRIBUTOR_PERMISSIONS,
  "SKIP_CHANGE_REQUEST",
  ...FLAG_MODEL_PERMISSIONS,
  "CREATE_STRATEGY",
  ...TAG_TYPE_PERMISSIONS,
  ...CONTEXT_FIELD_PERMISSIONS,
  // Changing who holds which role in a project (docs/project-roles.md#project-access): Admins and the project's Owners.
  "UPDATE_PROJECT",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

// Admin holds every permission; reading needs none beyond being authenticated.
const EDITOR: ReadonlySet<Permission> = new Set([
  ...CONTRIBUTOR_PERMISSIONS,
  ...FLAG_MODEL_PERMISSIONS,
  ...TAG_TYPE_PERMISSIONS,
  ...CONTEXT_FIELD_PERMISSIONS,
]);

export function roleHasPermission(rootRole: RootRoleId, permission: Permission): boolean {
  if (rootRole === RootRole.Admin) return true;
  if (rootRole === RootRole.Editor) return EDITOR.has(permission);
  return false;
}

/**
 * What a Member may do in its project (docs/project-roles.md#the-rule): flags, strategies, variants,
 * switching environments, and change requests; an Owner holds these and project access too.
 */
const MEMBER: ReadonlySet<Permission> = new Set([...CONTRIBUTOR_PERMISSIONS, ...FLAG_PERMISSIONS, "DELETE_FEATURE"]);
const OWNER: ReadonlySet<Permission> = new Set([...MEMBER, "UPDATE_PROJECT"]);

/** The permissions project roles decide within their project; any other is the root role's everywhere. */
export const PROJECT_PERMISSIONS: ReadonlySet<Permission> = OWNER;

export function projectRoleHasPermission(role: ProjectRoleId, permission: Permission): boolean {
  if (role === ProjectRole.Owner) return OWNER.has(permission);
  if (role === ProjectRole.Member) return MEMBER.has(permission);
  return false;
}
