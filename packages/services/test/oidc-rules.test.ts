import { test } from "uvu";
import * as assert from "uvu/assert";
import { AuthenticationRequired, RootRole, ValidationError } from "../src/index.ts";
import { oidcIdentity } from "../src/oidc/oidc-identity.ts";
import type { OidcSettings } from "../src/oidc/oidc-settings.ts";
import { checkedReturnTo } from "../src/oidc/return-to.ts";

// The pure rules of single sign-on (docs/oidc.md#returnto, docs/oidc.md#users); the flow itself is apps/server/test/oidc.test.ts.
const settings: OidcSettings = {
  issuerUrl: "https://idp.example",
  clientId: "vexil",
  clientSecret: undefined,
  redirectUrl: "https://vexil.example/auth/oidc/callback",
  scopes: "openid",
  providerName: "IdP",
  roleClaim: "groups",
  roleMap: new Map([
    ["admins", RootRole.Admin],
    ["editors", RootRole.Editor],
    ["readers", RootRole.Viewer],
  ]),
  groupsClaim: "groups",
  autoCreateRole: RootRole.Viewer,
  loginTtlSeconds: 600,
};

test("returnTo: a path of this origin, / by default", () => {
  assert.is(checkedReturnTo(undefined), "/");
  assert.is(checkedReturnTo(""), "/");
  assert.is(checkedReturnTo("/projects/default?x=1#top"), "/projects/default?x=1#top");
  // Percent-encoded slashes stay a path: browsers do not decode them into another host.
  assert.is(checkedReturnTo("/%2F%2Fevil.example"), "/%2F%2Fevil.example");
});

test("returnTo: anything that could leave the origin is a 400", () => {
  for (const value of [
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example",
    "http:evil.example",
    "evil",
    "/a\nb",
    "/a\tb",
    "/\u0000",
    `/${"x".repeat(2001)}`,
  ]) {
    assert.throws(
      () => checkedReturnTo(value),
      (e: unknown) => e instanceof ValidationError,
      JSON.stringify(value),
    );
  }
});

test("identity: the strongest mapped role among the claim's values, in a list or a space-separated string", () => {
  const claims = { iss: "https://idp.example", sub: "u1" };
  assert.is(oidcIdentity({ ...claims, groups: ["readers", "editors", "other"] }, settings).mappedRole, RootRole.Editor);
  assert.is(oidcIdentity({ ...claims, groups: "readers admins" }, settings).mappedRole, RootRole.Admin);
  assert.is(oidcIdentity({ ...claims, groups: "admins" }, settings).mappedRole, RootRole.Admin);
  assert.is(oidcIdentity({ ...claims, groups: ["other"] }, settings).mappedRole, null);
  assert.is(oidcIdentity({ ...claims, groups: 42 }, settings).mappedRole, null);
  assert.is(oidcIdentity({ ...claims, groups: ["admins"] }, { ...settings, roleClaim: undefined }).mappedRole, null);
});

test("identity: the groups claim's names, each once, trimmed, at most 100; none without the setting", () => {
  const claims = { iss: "https://idp.example", sub: "u1" };
  assert.equal(oidcIdentity({ ...claims, groups: [" team-web ", "team-web", "ops", 7, ""] }, settings).groups, ["team-web", "ops"]);
  assert.equal(oidcIdentity({ ...claims, groups: "team web" }, settings).groups, ["team web"]);
  assert.equal(oidcIdentity(claims, settings).groups, []);
  const many = Array.from({ length: 150 }, (_, i) => `g${i}`);
  assert.equal(oidcIdentity({ ...claims, groups: many }, settings).groups, many.slice(0, 100));
  assert.is(oidcIdentity({ ...claims, groups: ["ops"] }, { ...settings, groupsClaim: undefined }).groups, null);
});

test("identity: only a verified, well-formed e-mail counts; no subject is no identity", () => {
  const identity = oidcIdentity({ iss: "https://idp.example", sub: "u1", email: "a@b.example", email_verified: "true" }, settings);
  assert.equal([identity.email, identity.emailVerified], ["a@b.example", false]);
  assert.is(oidcIdentity({ iss: "https://idp.example", sub: "u1", email: "not an e-mail" }, settings).email, null);
  assert.throws(
    () => oidcIdentity({ iss: "https://idp.example", sub: "" }, settings),
    (e: unknown) => e instanceof AuthenticationRequired,
  );
});

test.run();
