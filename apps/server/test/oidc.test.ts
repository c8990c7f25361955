import { createUser, RootRole } from "@vexil/services";
import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ConfigError, loadConfig } from "../src/config.ts";
import { startTestProvider } from "@vexil/oidc-test-provider";
import { adminToken, TEST_PASSWORD } from "./support/principals.ts";
import { type Answer, SignInDriver } from "./support/sign-in-driver.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

// Single sign-on against a real OpenID provider on a local port (docs/oidc.md): one Vexil that creates
// unknown people (their role from the `groups` claim, their groups too), one that refuses them and has password login off.
const idp = await startTestProvider();
const oidcEnv = (extra: Record<string, string>) => ({
  OIDC_ISSUER_URL: idp.issuer,
  OIDC_CLIENT_ID: idp.clientId,
  OIDC_CLIENT_SECRET: idp.clientSecret,
  OIDC_SCOPES: "openid email profile groups",
  OIDC_PROVIDER_NAME: "Test IdP",
  OIDC_ROLE_CLAIM: "groups",
  OIDC_ROLE_MAP: "vexil-admins=Admin,vexil-editors=Editor",
  ...extra,
});
// The redirect URL names Vexil's port, known only once it listens (on port 0): set in its settings then.
async function startWithOidc(extra: Record<string, string>): Promise<TestServer> {
  const srv = await startTestServer(oidcEnv({ OIDC_REDIRECT_URL: "http://127.0.0.1:1/auth/oidc/callback", ...extra }));
  const settings = srv.app.deps.oidc?.settings as { redirectUrl: string };
  settings.redirectUrl = `${srv.url}/auth/oidc/callback`;
  return srv;
}
const srv = await startWithOidc({ OIDC_AUTO_CREATE: "true", OIDC_AUTO_CREATE_ROLE: "Viewer", OIDC_GROUPS_CLAIM: "groups" });
const closed = await startWithOidc({ PASSWORD_LOGIN: "false" });
idp.register(`${srv.url}/auth/oidc/callback`, `${closed.url}/auth/oidc/callback`);

idp.accounts.set("alice", {
  sub: "alice-sub",
  email: "alice@example.com",
  email_verified: true,
  name: "Alice",
  preferred_username: "alice",
  groups: ["vexil-editors"],
});
idp.accounts.set("bob", { sub: "bob-sub", email: "bob@example.com", email_verified: true, name: "Bob", preferred_username: "bob" });
idp.accounts.set("carol", { sub: "carol-sub", email: "Carol@Example.com", email_verified: true, name: "Carol" });
idp.accounts.set("mallory", { sub: "mallory-sub", email: "mallory@example.com", email_verified: false, preferred_username: "mallory" });

const CALLBACK = "/auth/oidc/callback";
const atCallback = (server: TestServer) => (location: string) => location.startsWith(`${server.url}${CALLBACK}`);

/** Vexil's start: the provider's authorization URL it redirects to, with its state cookie in the driver's jar. */
async function start(driver: SignInDriver, server: TestServer, returnTo?: string): Promise<URL> {
  const answer = await driver.get(
    `${server.url}/auth/oidc/login${returnTo === undefined ? "" : `?returnTo=${encodeURIComponent(returnTo)}`}`,
  );
  assert.is(answer.status, 302, answer.text);
  return new URL(answer.location as string);
}

/** At the provider: its login page, the username typed, and the redirect back to Vexil's callback (not followed). */
async function atProvider(driver: SignInDriver, server: TestServer, authorizationUrl: URL, login: string): Promise<string> {
  const page = await driver.follow(authorizationUrl.href, atCallback(server));
  assert.is(page.status, 200, `the provider's login page: ${page.status} ${page.text.slice(0, 300)}`);
  const action = /action="([^"]+)"/.exec(page.text)?.[1] as string;
  const posted = await driver.postForm(new URL(action, idp.issuer).href, { login });
  const back = await driver.follow(posted.location as string, atCallback(server));
  assert.ok(
    back.location && atCallback(server)(back.location),
    `back to Vexil: ${back.status} ${back.location} ${back.text.slice(0, 300)}`,
  );
  return back.location as string;
}

/** A whole sign-in: Vexil's answer to the callback. */
async function signIn(login: string, server = srv, returnTo?: string): Promise<{ answer: Answer; driver: SignInDriver }> {
  const driver = new SignInDriver();
  const callback = await atProvider(driver, server, await start(driver, server, returnTo), login);
  return { answer: await driver.get(callback), driver };
}

const counts = async (server: TestServer) => {
  const { rows } = await sql<{ users: number; sessions: number; events: number; logins: number }>`
    select (select count(*) from users)::int as users, (select count(*) from sessions)::int as sessions,
           (select count(*) from events)::int as events, (select count(*) from oidc_logins)::int as logins`.execute(server.db.kysely);
  return rows[0] as { users: number; sessions: number; events: number; logins: number };
};

/** A refusal is a page for a person, with its status, a sentence, and the way back to the login page. */
function assertRefusalPage(answer: Answer, status: number, sentence: RegExp): void {
  assert.is(answer.status, status, answer.text.slice(0, 500));
  assert.match(String(answer.headers["content-type"]), /^text\/html/);
  assert.match(answer.text, sentence, answer.text.slice(0, 800));
  assert.match(answer.text, /<a href="\/login">Back to the login page<\/a>/);
  assert.is(answer.location, undefined, "no redirect");
  assert.not.match(String(answer.headers["set-cookie"] ?? ""), /vexil-session=Fe26/, "no session cookie");
}

/** Runs `refused` and checks that it left no user, session or event behind. */
async function storesNothing(server: TestServer, refused: () => Promise<void>): Promise<void> {
  const before = await counts(server);
  await refused();
  const after = await counts(server);
  assert.equal({ ...after, logins: 0 }, { ...before, logins: 0 }, "no user, session or event");
}

test("a new person signs in: created with the role their groups map to, the session cookie of a password login, back where they started", async () => {
  const { answer } = await signIn("alice", srv, "/projects/default");
  assert.is(answer.status, 302, answer.text);
  assert.is(answer.location, `${srv.url}/projects/default`);
  const cookies = ([] as string[]).concat(answer.headers["set-cookie"] ?? []);
  const session = cookies.find((c) => c.startsWith("vexil-session=")) as string;
  for (const flag of ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=172800"]) assert.ok(session.includes(flag), flag);
  assert.ok(
    cookies.some((c) => /^vexil-oidc=;.*Max-Age=0/.test(c)),
    "the state cookie is spent",
  );

  const me = await srv.call("GET", "/api/admin/user", { headers: { cookie: session.split(";")[0] as string } });
  assert.is(me.status, 200);
  const { user } = me.json;
  assert.equal([user.username, user.email, user.name, user.rootRole], ["alice", "alice@example.com", "Alice", RootRole.Editor]);
  assert.equal([user.authProvider, user.oidcSubject], ["oidc", "alice-sub"]);
  const row = await srv.db.kysely.selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
  assert.equal([row.oidc_issuer, row.oidc_subject, row.password_hash], [idp.issuer, "alice-sub", null]);
  const events = await srv.db.kysely.selectFrom("events").select("type").where("created_by_user_id", "=", user.id).orderBy("id").execute();
  assert.equal(
    events.map((e) => e.type),
    ["user-created", "group-created", "user-groups-synced", "user-logged-in"],
  );
  assert.is((await counts(srv)).logins, 0, "the sign-in's checks are spent");
  // An Editor indeed: creating a flag is allowed.
  const created = await srv.call("POST", "/api/admin/projects/default/features", {
    headers: { cookie: session.split(";")[0] as string },
    body: { name: "made-by-alice" },
  });
  assert.is(created.status, 201);
});

test("signing in again is the same user; the role follows the provider's groups; without a mapped group, the configured role", async () => {
  const users = (await counts(srv)).users;
  (idp.accounts.get("alice") as { groups: string[] }).groups = ["vexil-admins", "vexil-editors"];
  const again = await signIn("alice");
  assert.is(again.answer.status, 302);
  assert.is(again.answer.location, `${srv.url}/`, "the console by default");
  assert.is((await counts(srv)).users, users);
  const alice = await srv.db.kysely.selectFrom("users").selectAll().where("oidc_subject", "=", "alice-sub").executeTakeFirstOrThrow();
  assert.is(alice.root_role, RootRole.Admin, "the strongest mapped role");

  const bob = await signIn("bob");
  assert.is(bob.answer.status, 302);
  const row = await srv.db.kysely.selectFrom("users").selectAll().where("oidc_subject", "=", "bob-sub").executeTakeFirstOrThrow();
  assert.is(row.root_role, RootRole.Viewer, "OIDC_AUTO_CREATE_ROLE");
});

test("a verified e-mail links the existing user once; an unverified one never takes an account", async () => {
  const carol = await createUser(srv.db.kysely, srv.app.deps.hasher, null, {
    username: "carol",
    email: "carol@example.com",
    password: TEST_PASSWORD,
    rootRole: RootRole.Editor,
  });
  const { answer } = await signIn("carol");
  assert.is(answer.status, 302);
  const row = await srv.db.kysely.selectFrom("users").selectAll().where("id", "=", carol.id).executeTakeFirstOrThrow();
  assert.equal([row.oidc_subject, row.root_role], ["carol-sub", RootRole.Editor]);

  await createUser(srv.db.kysely, srv.app.deps.hasher, null, { email: "mallory@example.com", rootRole: RootRole.Admin });
  const mallory = await signIn("mallory");
  assert.is(mallory.answer.status, 302);
  const users = await srv.db.kysely.selectFrom("users").selectAll().where("oidc_subject", "=", "mallory-sub").execute();
  assert.is(users.length, 1);
  assert.equal([users[0]?.email, users[0]?.username, users[0]?.root_role], [null, "mallory", RootRole.Viewer], "a new user, not the Admin");
});

test("refused: a user the directory deactivated (SCIM active: false), with a 403 page and no session", async () => {
  await srv.db.kysely.updateTable("users").set({ active: false }).where("oidc_subject", "=", "bob-sub").execute();
  await storesNothing(srv, async () => {
    assertRefusalPage((await signIn("bob")).answer, 403, /account is deactivated/);
  });
  await srv.db.kysely.updateTable("users").set({ active: true }).where("oidc_subject", "=", "bob-sub").execute();
  assert.is((await signIn("bob")).answer.status, 302, "reactivated, they sign in again");
});

test("the groups claim sets the groups sign-in manages, and with them the person's project roles", async () => {
  const db = srv.db.kysely;
  const admin = await adminToken(srv);
  await db.insertInto("groups").values({ name: "team-scim", scim_id: "scim-team" }).execute();
  idp.accounts.set("gina", { sub: "gina-sub", email: "gina@example.com", email_verified: true, groups: ["team-web", "team-scim"] });
  const first = await signIn("gina");
  assert.is(first.answer.status, 302, first.answer.text);
  const session = ([] as string[]).concat(first.answer.headers["set-cookie"] ?? []).find((c) => c.startsWith("vexil-session=")) as string;
  const cookie = { cookie: session.split(";")[0] as string };
  const gina = await db.selectFrom("users").select("id").where("oidc_subject", "=", "gina-sub").executeTakeFirstOrThrow();
  const groupsOf = async () =>
    (
      await db
        .selectFrom("group_users")
        .innerJoin("groups", "groups.id", "group_users.group_id")
        .select("groups.name")
        .where("group_users.user_id", "=", gina.id)
        .orderBy("groups.name")
        .execute()
    ).map((g) => g.name);
  assert.equal(await groupsOf(), ["team-web"], "a group SCIM provisions keeps SCIM's members");

  // An Admin makes the group a Member of default: the root Viewer writes flags there.
  const web = await db.selectFrom("groups").select("id").where("name", "=", "team-web").executeTakeFirstOrThrow();
  const grant = await srv.call("POST", "/api/admin/projects/default/role/5/access", { headers: admin, body: { groups: [{ id: web.id }] } });
  assert.is(grant.status, 200, JSON.stringify(grant.json));
  const created = await srv.call("POST", "/api/admin/projects/default/features", { headers: cookie, body: { name: "by-team-web" } });
  assert.is(created.status, 201, JSON.stringify(created.json));

  // The directory takes Gina out of team-web: at her next sign-in she leaves it, and her open session loses its role at once.
  (idp.accounts.get("gina") as { groups: string[] }).groups = ["team-scim"];
  assert.is((await signIn("gina")).answer.status, 302);
  assert.equal(await groupsOf(), []);
  const refused = await srv.call("POST", "/api/admin/projects/default/features", { headers: cookie, body: { name: "not-by-gina" } });
  assert.is(refused.status, 403, JSON.stringify(refused.json));
  const events = await db.selectFrom("events").select(["type", "data"]).where("created_by_user_id", "=", gina.id).orderBy("id").execute();
  assert.equal(
    events.filter((e) => e.type === "user-groups-synced").map((e) => e.data),
    [
      { userId: gina.id, joined: [web.id], left: [] },
      { userId: gina.id, joined: [], left: [web.id] },
    ],
  );
});

test("refused: a state that is not the one this browser started with, or no state cookie at all", async () => {
  await storesNothing(srv, async () => {
    const driver = new SignInDriver();
    const callback = new URL(await atProvider(driver, srv, await start(driver, srv), "alice"));
    callback.searchParams.set("state", "forged-state");
    assertRefusalPage(await driver.get(callback.href), 400, /did not start in this browser/);

    // Signed in at the provider by one browser, the callback opened in another (login CSRF).
    const victim = new SignInDriver();
    const attacker = new SignInDriver();
    const real = await atProvider(attacker, srv, await start(attacker, srv), "alice");
    assertRefusalPage(await victim.get(real), 400, /did not start in this browser/);
  });
});

test("refused: a replayed state, and a replayed code", async () => {
  const driver = new SignInDriver();
  const callback = await atProvider(driver, srv, await start(driver, srv), "alice");
  const cookiesThen = driver.cookies(srv.url);
  assert.is((await driver.get(callback)).status, 302);
  await storesNothing(srv, async () => {
    driver.setCookies(srv.url, cookiesThen);
    assertRefusalPage(await driver.get(callback), 400, /finished already, or it expired/);

    // The used code under a new, valid state: the provider refuses to exchange it twice.
    const fresh = new SignInDriver();
    const authorization = await start(fresh, srv);
    const replay = new URL(callback);
    replay.searchParams.set("state", authorization.searchParams.get("state") as string);
    assertRefusalPage(await fresh.get(replay.href), 401, /refused the sign-in code/);
  });
});

test("refused: an ID token with another nonce, for another audience, or expired; a code issued to another client", async () => {
  await storesNothing(srv, async () => {
    const nonce = new SignInDriver();
    const authorization = await start(nonce, srv);
    authorization.searchParams.set("nonce", "not-the-nonce-vexil-sent");
    assertRefusalPage(await nonce.get(await atProvider(nonce, srv, authorization, "bob")), 401, /failed a check.*nonce/);

    try {
      idp.tamperIdToken = (claims) => ({ ...claims, aud: idp.otherClientId });
      assertRefusalPage((await signIn("bob")).answer, 401, /failed a check.*aud/);
      const now = Math.floor(Date.now() / 1000);
      idp.tamperIdToken = (claims) => ({ ...claims, iat: now - 7200, exp: now - 3600 });
      assertRefusalPage((await signIn("bob")).answer, 401, /failed a check.*exp/);
    } finally {
      idp.tamperIdToken = null;
    }

    const other = new SignInDriver();
    const forOther = await start(other, srv);
    forOther.searchParams.set("client_id", idp.otherClientId);
    assertRefusalPage(await other.get(await atProvider(other, srv, forOther, "bob")), 401, /refused the sign-in code/);
  });
});

test("refused: a returnTo that leaves this origin; nothing is started", async () => {
  for (const returnTo of [
    "//evil.example",
    "https://evil.example/x",
    "/\\evil.example",
    "/\\/evil.example",
    "http:evil.example",
    "/a\nb",
  ]) {
    const before = await counts(srv);
    const answer = await new SignInDriver().get(`${srv.url}/auth/oidc/login?returnTo=${encodeURIComponent(returnTo)}`);
    assertRefusalPage(answer, 400, /returnTo must be a path of this server/);
    assert.equal(await counts(srv), before, returnTo);
  }
  const ok = await new SignInDriver().get(`${srv.url}/auth/oidc/login?returnTo=${encodeURIComponent("/projects?x=1")}`);
  assert.is(ok.status, 302);
});

test("a server that creates nobody refuses an unknown person with a 403 page, and one without password login says so", async () => {
  await storesNothing(closed, async () => {
    assertRefusalPage((await signIn("alice", closed)).answer, 403, /has no account for alice@example\.com/);
  });
  await createUser(closed.db.kysely, closed.app.deps.hasher, null, { email: "bob@example.com", rootRole: RootRole.Viewer });
  assert.is((await signIn("bob", closed)).answer.status, 302, "a known (verified) e-mail signs in");

  const password = await closed.call("POST", "/auth/simple/login", { body: { username: "admin", password: "unleash4all" } });
  assert.is(password.status, 422);
  assert.equal([password.json.name, password.json.message], ["DisabledError", "Logging in with username/password has been disabled."]);
  assert.equal((await closed.call("GET", "/auth/login-options")).json, {
    password: false,
    oidc: { name: "Test IdP", loginPath: "/auth/oidc/login" },
  });
  assert.equal((await srv.call("GET", "/auth/login-options")).json, {
    password: true,
    oidc: { name: "Test IdP", loginPath: "/auth/oidc/login" },
  });
});

test("without single sign-on set up: the routes are a 404 page, login options say password only", async () => {
  const plain = await startTestServer();
  try {
    const answer = await new SignInDriver().get(`${plain.url}/auth/oidc/login`);
    assertRefusalPage(answer, 404, /Single sign-on is not set up/);
    assertRefusalPage(await new SignInDriver().get(`${plain.url}${CALLBACK}?code=x&state=y`), 404, /Single sign-on is not set up/);
    assert.equal((await plain.call("GET", "/auth/login-options")).json, { password: true, oidc: null });
  } finally {
    await plain.close();
    await plain.db.close();
  }
});

test("configuration: single sign-on is all or nothing, and password login cannot be turned off without it", () => {
  const refused = (env: Record<string, string>, problem: RegExp) =>
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && problem.test(e.message),
    );
  refused({ OIDC_ISSUER_URL: "https://idp.example" }, /OIDC_CLIENT_ID: is needed/);
  refused(
    { OIDC_ISSUER_URL: "http://idp.example", OIDC_CLIENT_ID: "x", PUBLIC_URL: "https://vexil.example" },
    /OIDC_ISSUER_URL: must be an https/,
  );
  refused({ PASSWORD_LOGIN: "false" }, /PASSWORD_LOGIN: can be false only with single sign-on/);
  refused({ OIDC_ROLE_MAP: "admins=Root" }, /must look like/);
  refused({ OIDC_GROUPS_CLAIM: "groups" }, /OIDC_ISSUER_URL: is needed for the other OIDC_ settings/);
  refused(
    { OIDC_ISSUER_URL: "https://idp.example", OIDC_CLIENT_ID: "x", OIDC_REDIRECT_URL: "https://vexil.example/elsewhere" },
    /OIDC_REDIRECT_URL/,
  );
  const config = loadConfig({ OIDC_ISSUER_URL: "https://idp.example", OIDC_CLIENT_ID: "x", PUBLIC_URL: "https://vexil.example/" });
  assert.is(config.OIDC_REDIRECT_URL, "https://vexil.example/auth/oidc/callback");
  assert.is(config.OIDC_SCOPES, "openid email profile");
});

test.after(async () => {
  for (const server of [srv, closed]) {
    await server.close();
    await server.db.close();
  }
  await idp.close();
});

test.run();
