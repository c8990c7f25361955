/** Root roles as Unleash numbers them. */
export const RootRole = { Admin: 1, Editor: 2, Viewer: 3 } as const;
export type RootRoleId = (typeof RootRole)[keyof typeof RootRole];

/** What editors may do to flags (docs/auth.md#roles-and-permissions): Unleash's permission names. */
const FLAG_MODEL_PERMISSIONS = [
  "UPDATE_FEATURE",
  "UPDATE_FEATURE_ENVIRONMENT",
  "CREATE_FEATURE_STRATEGY",
  "UPDATE_FEATURE_STRATEGY",
  "DELETE_FEATURE_STRATEGY",
  "UPDATE_FEATURE_DEPENDENCY",
  "CREATE_SEGMENT",
  "UPDATE_SEGMENT",
  "DELETE_SEGMENT",
  // Archiving a flag and deleting an archived one for good (docs/flag-model.md#archive-revive-delete).
  "DELETE_FEATURE",
] as const;

/** Tag types are Editors' in Unleash (its role Editor holds these three). */
const TAG_TYPE_PERMISSIONS = ["CREATE_TAG_TYPE", "UPDATE_TAG_TYPE", "DELETE_TAG_TYPE"] as const;

/** Context fields are Editors' too (its role Editor holds these three in Unleash; docs/context-fields.md). */
const CONTEXT_FIELD_PERMISSIONS = ["CREATE_CONTEXT_FIELD", "UPDATE_CONTEXT_FIELD", "DELETE_CONTEXT_FIELD"] as const;

export const PERMISSIONS = [
  "ADMIN",
  "UPDATE_INSTANCE_BANNERS",
  "CREATE_FEATURE",
  "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
  "APPROVE_CHANGE_REQUEST",
  "APPLY_CHANGE_REQUEST",
  "SKIP_CHANGE_REQUEST",
  ...FLAG_MODEL_PERMISSIONS,
  "CREATE_STRATEGY",
  ...TAG_TYPE_PERMISSIONS,
  ...CONTEXT_FIELD_PERMISSIONS,
] as const;
export type Permission = (typeof PERMISSIONS)[number];

// Admin holds every permission; reading needs none beyond being authenticated.
const EDITOR: ReadonlySet<Permission> = new Set([
  "CREATE_FEATURE",
  "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
  "APPROVE_CHANGE_REQUEST",
  "APPLY_CHANGE_REQUEST",
  ...FLAG_MODEL_PERMISSIONS,
  ...TAG_TYPE_PERMISSIONS,
  ...CONTEXT_FIELD_PERMISSIONS,
]);

export function roleHasPermission(rootRole: RootRoleId, permission: Permission): boolean {
  if (rootRole === RootRole.Admin) return true;
  if (rootRole === RootRole.Editor) return EDITOR.has(permission);
  return false;
}
