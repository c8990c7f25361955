import { test } from "uvu";
import * as assert from "uvu/assert";
import { PERMISSIONS, type Principal, ProjectRole, principalHasPermission, RootRole, roleHasPermission } from "../src/index.ts";

// The permission table of docs/auth.md#roles-and-permissions, written out so that a change to the code shows here.
const expected: Record<string, Record<number, boolean>> = {
  ADMIN: { 1: true, 2: false, 3: false },
  UPDATE_INSTANCE_BANNERS: { 1: true, 2: false, 3: false },
  CREATE_FEATURE: { 1: true, 2: true, 3: false },
  UPDATE_FEATURE_ENVIRONMENT_VARIANTS: { 1: true, 2: true, 3: false },
  APPROVE_CHANGE_REQUEST: { 1: true, 2: true, 3: false },
  APPLY_CHANGE_REQUEST: { 1: true, 2: true, 3: false },
  SKIP_CHANGE_REQUEST: { 1: true, 2: false, 3: false },
  // The flag model (docs/auth.md#roles-and-permissions): editors shape flags; custom strategy types are an admin's.
  UPDATE_FEATURE: { 1: true, 2: true, 3: false },
  UPDATE_FEATURE_ENVIRONMENT: { 1: true, 2: true, 3: false },
  CREATE_FEATURE_STRATEGY: { 1: true, 2: true, 3: false },
  UPDATE_FEATURE_STRATEGY: { 1: true, 2: true, 3: false },
  DELETE_FEATURE_STRATEGY: { 1: true, 2: true, 3: false },
  UPDATE_FEATURE_DEPENDENCY: { 1: true, 2: true, 3: false },
  CREATE_STRATEGY: { 1: true, 2: false, 3: false },
  CREATE_SEGMENT: { 1: true, 2: true, 3: false },
  UPDATE_SEGMENT: { 1: true, 2: true, 3: false },
  DELETE_SEGMENT: { 1: true, 2: true, 3: false },
  DELETE_FEATURE: { 1: true, 2: true, 3: false },
  // Tag types are Editors' in Unleash too.
  CREATE_TAG_TYPE: { 1: true, 2: true, 3: false },
  UPDATE_TAG_TYPE: { 1: true, 2: true, 3: false },
  DELETE_TAG_TYPE: { 1: true, 2: true, 3: false },
  // Context fields too (docs/context-fields.md).
  CREATE_CONTEXT_FIELD: { 1: true, 2: true, 3: false },
  UPDATE_CONTEXT_FIELD: { 1: true, 2: true, 3: false },
  DELETE_CONTEXT_FIELD: { 1: true, 2: true, 3: false },
  // Project access is Admins' and a project's Owners' (docs/project-roles.md#project-access).
  UPDATE_PROJECT: { 1: true, 2: false, 3: false },
};

test("root roles hold the permissions of docs/auth.md's table", () => {
  for (const permission of PERMISSIONS) {
    for (const role of [RootRole.Admin, RootRole.Editor, RootRole.Viewer]) {
      assert.is(roleHasPermission(role, permission), expected[permission]?.[role], `${permission} for role ${role}`);
    }
  }
});

test("an admin token holds every permission and a client token none", () => {
  const admin: Principal = { kind: "admin-token", tokenId: 1, tokenName: "ci" };
  const client: Principal = {
    kind: "sdk-token",
    tokenId: 2,
    tokenName: "sdk",
    type: "client",
    projects: ["*"],
    environment: "development",
  };
  for (const permission of PERMISSIONS) {
    assert.ok(principalHasPermission(admin, permission));
    assert.not.ok(principalHasPermission(client, permission));
  }
});

test("in a project where a user holds roles, they decide its permissions; elsewhere the root role does (docs/project-roles.md#the-rule)", () => {
  const user = (rootRole: 1 | 2 | 3, roles: number[]): Principal => ({
    kind: "user",
    userId: 1,
    username: "u",
    rootRole,
    via: "session",
    projectRoles: { x: roles as (4 | 5 | 6)[] },
  });
  const editorViewer = user(RootRole.Editor, [ProjectRole.Viewer]);
  assert.not.ok(principalHasPermission(editorViewer, "UPDATE_FEATURE", "x"));
  assert.ok(principalHasPermission(editorViewer, "UPDATE_FEATURE", "default"), "another project: the root role");
  assert.ok(principalHasPermission(editorViewer, "UPDATE_FEATURE"), "no project: the root role");
  assert.ok(principalHasPermission(editorViewer, "CREATE_SEGMENT", "x"), "not a project permission: the root role");

  const viewerMember = user(RootRole.Viewer, [ProjectRole.Member]);
  for (const permission of ["CREATE_FEATURE", "UPDATE_FEATURE_ENVIRONMENT", "APPROVE_CHANGE_REQUEST", "DELETE_FEATURE"] as const) {
    assert.ok(principalHasPermission(viewerMember, permission, "x"), permission);
    assert.not.ok(principalHasPermission(viewerMember, permission, "default"), permission);
  }
  assert.not.ok(principalHasPermission(viewerMember, "UPDATE_PROJECT", "x"));
  assert.not.ok(principalHasPermission(viewerMember, "SKIP_CHANGE_REQUEST", "x"));

  const owner = user(RootRole.Viewer, [ProjectRole.Owner, ProjectRole.Viewer]);
  assert.ok(principalHasPermission(owner, "UPDATE_PROJECT", "x"), "roles add up");
  assert.not.ok(principalHasPermission(owner, "ADMIN", "x"));
  assert.not.ok(principalHasPermission(owner, "SKIP_CHANGE_REQUEST", "x"));

  const admin = user(RootRole.Admin, [ProjectRole.Viewer]);
  for (const permission of PERMISSIONS) assert.ok(principalHasPermission(admin, permission, "x"), `Admin: ${permission}`);
});

test.run();
