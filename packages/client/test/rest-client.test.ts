import { test } from "uvu";
import * as assert from "uvu/assert";
import { createRestClient, VexilApiError } from "../src/index.ts";
import { draftChangeRequest } from "./support/draft-change-request.ts";
import { ADMIN_PASSWORD, ADMIN_TOKEN, startServer } from "./support/start-server.ts";

const srv = await startServer();
const admin = createRestClient({ baseUrl: srv.url, token: ADMIN_TOKEN });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The error a call threw; fails when it did not throw a VexilApiError. */
async function failure(call: Promise<unknown>): Promise<VexilApiError> {
  try {
    await call;
  } catch (error) {
    assert.instance(error, VexilApiError);
    return error as VexilApiError;
  }
  throw new assert.Assertion({ message: "expected the call to fail", generated: false, operator: "throws", expects: "", actual: "" });
}

test("with a token: create a banner, then list it", async () => {
  const banner = await admin.banners.create({ message: "Maintenance at **noon**", variant: "warning" });
  assert.ok(banner.id >= 1);
  assert.equal(
    [banner.message, banner.variant, banner.enabled, banner.sticky, banner.icon],
    ["Maintenance at **noon**", "warning", true, false, null],
  );
  const { banners } = await admin.banners.list();
  assert.equal(banners[0], banner);
});

test("variants: PUT sends the bare array, PATCH the bare patch, GET reads what they stored", async () => {
  await admin.features.create({ projectId: "default", name: "checkout" });
  const path = { projectId: "default", featureName: "checkout", environment: "development" };
  const replaced = await admin.features.replaceVariants({
    ...path,
    variants: [
      { name: "green", stickiness: "userId", payload: { type: "json", value: '{"color":"green"}' } },
      { name: "blue" },
      { name: "red" },
    ],
  });
  assert.equal(
    replaced.variants.map((v) => [v.name, v.weight]),
    [
      ["blue", 333],
      ["green", 334],
      ["red", 333],
    ],
  );
  const patched = await admin.features.patchVariants({ ...path, patch: [{ op: "remove", path: "/2" }] });
  assert.equal(
    patched.variants.map((v) => [v.name, v.weight]),
    [
      ["blue", 500],
      ["green", 500],
    ],
  );
  const read = await admin.features.variants(path);
  assert.equal(read, { version: 1, variants: patched.variants });
  assert.equal(read.variants[1]?.payload, { type: "json", value: '{"color":"green"}' });
});

test("log in: the session cookie is kept and sent; logout ends it", async () => {
  const client = createRestClient({ baseUrl: srv.url });
  assert.is(client.sessionCookie, undefined);
  const user = await client.auth.login({ username: "admin", password: ADMIN_PASSWORD });
  assert.equal([user.username, user.rootRole, user.accountType], ["admin", 1, "User"]);
  assert.match(client.sessionCookie ?? "", /^vexil-session=.+/);
  const { banners } = await client.banners.list();
  assert.ok(Array.isArray(banners));
  await client.auth.logout();
  assert.is(client.sessionCookie, undefined);
  const after = await failure(client.banners.list());
  assert.equal([after.status, after.name], [401, "AuthenticationRequired"]);
});

test("pending change requests of the logged-in user", async () => {
  const draft = await draftChangeRequest(srv.url, "checkout", [{ name: "blue" }]);
  assert.is(draft.state, "Draft");
  const author = createRestClient({ baseUrl: srv.url });
  await author.auth.login({ username: "admin", password: ADMIN_PASSWORD });
  const pending = await author.changeRequests.pending({ projectId: "default" });
  assert.equal(
    pending.map((cr) => [cr.id, cr.state, cr.environment]),
    [[draft.id, "Draft", "production"]],
  );
  assert.equal(await admin.changeRequests.pending({ projectId: "default" }), [], "an API token is not a user");
});

test("every failure is one VexilApiError with status, name, message and id; nothing is stored", async () => {
  const before = (await admin.banners.list()).banners.length;
  const invalid = await failure(admin.banners.create({ message: "" }));
  assert.equal([invalid.status, invalid.name], [400, "ValidationError"]);
  assert.match(invalid.id, UUID);
  assert.equal([...new Set(invalid.details?.map((d) => d.path))], ["message"]);
  assert.is((await admin.banners.list()).banners.length, before);

  const missing = await failure(admin.features.variants({ projectId: "default", featureName: "ghost", environment: "development" }));
  assert.equal([missing.status, missing.name], [404, "NotFoundError"]);
  assert.match(missing.message, /ghost/);
  assert.match(missing.id, UUID);

  const wrong = await failure(createRestClient({ baseUrl: srv.url }).auth.login({ username: "admin", password: "not it" }));
  assert.equal([wrong.status, wrong.name, wrong.message], [401, "PasswordMismatch", "Wrong password or username, please try again."]);

  const anonymous = await failure(createRestClient({ baseUrl: srv.url }).banners.list());
  assert.equal([anonymous.status, anonymous.name], [401, "AuthenticationRequired"]);
  assert.ok(anonymous instanceof Error && anonymous.stack);
});

test("the frontend API with a frontend token: features reads the query's context, evaluate POSTs {context}", async () => {
  await admin.features.create({ projectId: "default", name: "web.beta" });
  const where = { projectId: "default", featureName: "web.beta", environment: "development" };
  await admin.featureStrategies.add({ ...where, name: "userWithId", parameters: { userIds: "alice" } });
  await admin.featureEnvironments.turnOn(where);
  const token = await admin.apiTokens.create({ tokenName: "web", type: "frontend", projects: ["default"], environment: "development" });
  const browser = createRestClient({ baseUrl: srv.url, token: token.secret });
  const names = (answer: { toggles: { name: string }[] }) => answer.toggles.map((t) => t.name);
  assert.equal(names(await browser.frontend.features({ userId: "alice" })), ["web.beta"]);
  assert.equal(names(await browser.frontend.features({ userId: "bob" })), []);
  const posted = await browser.frontend.evaluate({ context: { userId: "alice", properties: { plan: "pro" } } });
  assert.equal(posted.toggles[0], {
    name: "web.beta",
    enabled: true,
    variant: { name: "disabled", enabled: false, feature_enabled: true },
    impressionData: false,
  });
  const refused = await failure(admin.frontend.features({ currentTime: "never" }));
  assert.equal([refused.status, refused.name], [400, "ValidationError"]);
});

test("path parameters are encoded: a name with a slash stays one segment", async () => {
  const odd = await failure(admin.features.get({ projectId: "default", featureName: "a/b" }));
  assert.equal([odd.status, odd.name], [404, "NotFoundError"]);
  assert.match(odd.message, /"a\/b"/);
});

test("the client API's delta and streaming routes answer the REST client with the hydration, as JSON", async () => {
  await admin.features.create({ projectId: "default", name: "streamed" });
  for (const read of [() => admin.clientFeatures.delta(), () => admin.clientFeatures.streaming()]) {
    const { events } = await read();
    const [hydration] = events;
    assert.is(hydration?.type, "hydration");
    assert.ok(hydration?.type === "hydration" && hydration.features.some((f) => f.name === "streamed"));
  }
});

test.after(() => srv.close());

test.run();
