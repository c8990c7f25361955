import { test } from "uvu";
import * as assert from "uvu/assert";
import { patchGroupState } from "../src/scim/scim-group.ts";
import { parseScimFilter } from "../src/scim/scim-filter.ts";
import { parsePatchOperations } from "../src/scim/scim-patch-operations.ts";
import { ScimRefusal } from "../src/scim/scim-refusal.ts";
import { patchUserState, type ScimUserState, userStateFromResource } from "../src/scim/scim-user.ts";

// What SCIM's requests mean, as identity providers send them (docs/scim.md#patch, #filters-and-paging).
const dana: ScimUserState = { userName: "dana", externalId: "00u1", displayName: "Dana Scully", email: "dana@example.com", active: true };
const patch = (...Operations: unknown[]) =>
  parsePatchOperations({ schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations });

function refused(run: () => unknown, scimType: string): void {
  try {
    run();
  } catch (error) {
    assert.instance(error, ScimRefusal);
    assert.is((error as ScimRefusal).scimType, scimType, (error as Error).message);
    return;
  }
  assert.unreachable(`expected a refusal (${scimType})`);
}

test("filters: eq terms joined by and, attribute names in any case; nothing broader", () => {
  assert.equal(parseScimFilter('userName eq "dana@example.com"', ["userName"]), [{ attribute: "username", value: "dana@example.com" }]);
  assert.equal(parseScimFilter('  EXTERNALID Eq "a \\"b\\""  and id eq "x" ', ["externalId", "id"]), [
    { attribute: "externalid", value: 'a "b"' },
    { attribute: "id", value: "x" },
  ]);
  assert.equal(parseScimFilter(undefined, ["userName"]), []);
  for (const filter of [
    'userName ne "a"',
    'userName eq "a" or id eq "b"',
    'not (userName eq "a")',
    "userName pr",
    'displayName eq "a"',
    'userName eq "a" and ',
    'userName eq "\\u0000"',
  ]) {
    refused(() => parseScimFilter(filter, ["userName", "id"]), "invalidFilter");
  }
});

test("Okta's and Entra's user PATCHes", () => {
  assert.is(patchUserState(dana, patch({ op: "replace", value: { active: false } })).active, false);
  assert.is(patchUserState(dana, patch({ op: "Replace", path: "active", value: "False" })).active, false);
  const entra = patchUserState(
    dana,
    patch(
      { op: "Replace", path: 'emails[type eq "work"].value', value: "d@example.com" },
      { op: "Add", path: "urn:ietf:params:scim:schemas:core:2.0:User:displayName", value: "D. Scully" },
      { op: "Replace", path: "name.givenName", value: "Ignored" },
      { op: "Remove", path: "externalId" },
      { op: "Replace", value: { "name.familyName": "Ignored", userName: "dscully" } },
    ),
  );
  assert.equal(entra, { userName: "dscully", externalId: null, displayName: "D. Scully", email: "d@example.com", active: true });
  refused(() => patchUserState(dana, patch({ op: "remove", path: "active" })), "mutability");
  refused(() => patchUserState(dana, patch({ op: "replace", path: "emails[", value: "x" })), "invalidPath");
  refused(() => patchUserState(dana, patch({ op: "replace", path: "active", value: "yes" })), "invalidValue");
  refused(() => patch({ op: "copy", path: "active" }), "invalidSyntax");
  refused(() => patch({ op: "remove" }), "noTarget");
  refused(() => parsePatchOperations({ Operations: [] }), "invalidSyntax");
});

test("a User resource: the name from its parts, the primary e-mail, active true when left out", () => {
  const state = userStateFromResource({
    userName: "fox",
    name: { givenName: "Fox", familyName: "Mulder" },
    emails: [
      { value: "home@example.com", type: "home" },
      { value: "fox@example.com", type: "work", primary: "True" },
    ],
  });
  assert.equal(state, { userName: "fox", externalId: null, displayName: "Fox Mulder", email: "fox@example.com", active: true });
  refused(() => userStateFromResource({ userName: "" }), "invalidValue");
  refused(() => userStateFromResource([]), "invalidSyntax");
});

test("group PATCHes: Entra's members add and remove with value lists, Okta's one-member removal and rename", () => {
  const group = { displayName: "Owners", externalId: null, members: ["a"] };
  assert.equal(patchGroupState(group, patch({ op: "Add", path: "members", value: [{ value: "b" }, { value: "a" }] })).members, ["a", "b"]);
  assert.equal(
    patchGroupState({ ...group, members: ["a", "b"] }, patch({ op: "Remove", path: "members", value: [{ value: "a" }] })).members,
    ["b"],
  );
  assert.equal(patchGroupState({ ...group, members: ["a", "b"] }, patch({ op: "remove", path: 'members[value eq "b"]' })).members, ["a"]);
  assert.equal(patchGroupState({ ...group, members: ["a", "b"] }, patch({ op: "remove", path: "members" })).members, []);
  assert.equal(patchGroupState(group, patch({ op: "replace", path: "members", value: [{ value: "c" }] })).members, ["c"]);
  assert.is(patchGroupState(group, patch({ op: "replace", value: { id: "ignored", displayName: "Stewards" } })).displayName, "Stewards");
  refused(() => patchGroupState(group, patch({ op: "add", path: "members", value: [{ display: "no value" }] })), "invalidValue");
  refused(() => patchGroupState(group, patch({ op: "remove", path: "displayName" })), "mutability");
});

test.run();
