import { createHmac } from "node:crypto";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createAddon } from "@vexil/services";
import { sql } from "kysely";
import { until } from "./support/eventually.ts";
import { adminToken, userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";
import { startWebhookReceiver } from "./support/webhook-receiver.ts";

// docs/webhooks.md: retries start at 100 ms here so that a refusing receiver costs the test its
// 30 s and no more; the poll finds due retries a moment after they fall due.
const srv = await startTestServer({ WEBHOOK_RETRY_BASE_MS: "100", WEBHOOK_RETRY_MAX_MS: "2000", WEBHOOK_POLL_INTERVAL_MS: "100" });
const db = srv.db.kysely;
const admin = await adminToken(srv);
const receiver = await startWebhookReceiver();
let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}`;

async function createFeature(name: string): Promise<void> {
  const res = await srv.call("POST", "/api/admin/projects/default/features", { headers: admin, body: { name } });
  assert.is(res.status, 201, JSON.stringify(res.json));
}

async function eventIdOf(type: string, featureName: string): Promise<number> {
  const row = await db
    .selectFrom("events")
    .select("id")
    .where("type", "=", type)
    .where("feature_name", "=", featureName)
    .executeTakeFirstOrThrow();
  return row.id;
}

const countRows = async (table: "addons" | "addon_deliveries") =>
  Number((await db.selectFrom(table).select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n);

test("the addon API: create (the secret shown once), list with providers, read, change, delete; secrets never answered", async () => {
  const authorization = "Bearer ci-token-that-stays-here";
  const created = await srv.call("POST", "/api/admin/addons", {
    headers: admin,
    body: {
      provider: "webhook",
      description: "CI",
      parameters: { url: receiver.url, customHeaders: '{"X-Team": "flags"}', authorization },
      events: ["feature-archived"],
      projects: ["default"],
    },
  });
  assert.is(created.status, 201, JSON.stringify(created.json));
  assert.is(created.headers.location, `/api/admin/addons/${created.json.id}`);
  assert.is(created.json.enabled, true);
  // docs/webhooks.md#sensitive-parameters: masked in every answer, but for the made-up signing secret, once.
  const { signingSecret: secret, ...shown } = created.json.parameters;
  assert.equal(shown, { url: "*****", customHeaders: "*****", authorization: "*****" });
  assert.ok(secret.length >= 16 && secret !== "*****", "the create answer shows the made-up secret");
  const stored = await db.selectFrom("addons").selectAll().where("id", "=", created.json.id).executeTakeFirstOrThrow();
  assert.is(stored.signing_secret, secret);
  assert.equal(stored.parameters, { url: receiver.url, customHeaders: '{"X-Team": "flags"}', authorization });

  const list = await srv.call("GET", "/api/admin/addons", { headers: admin });
  assert.is(list.status, 200);
  assert.equal(
    list.json.providers.map((p: { name: string }) => p.name),
    ["webhook", "slack"],
  );
  const listed = list.json.addons.find((a: { id: number }) => a.id === created.json.id);
  const masked = { url: "*****", customHeaders: "*****", authorization: "*****", signingSecret: "*****" };
  assert.equal(listed.parameters, masked, "never shown again");

  // ***** sent back keeps the stored value (the secret's too); other fields change.
  const put = await srv.call("PUT", `/api/admin/addons/${created.json.id}`, {
    headers: admin,
    body: { parameters: listed.parameters, events: ["feature-archived", "feature-revived"], description: null },
  });
  assert.is(put.status, 200, JSON.stringify(put.json));
  assert.equal(put.json.events, ["feature-archived", "feature-revived"]);
  assert.is(put.json.description, null);
  assert.equal(put.json.parameters, masked, "nor in the answer to a change");
  const after = await db.selectFrom("addons").selectAll().where("id", "=", created.json.id).executeTakeFirstOrThrow();
  assert.equal(after.parameters, stored.parameters);
  assert.is(after.signing_secret, secret);

  const got = await srv.call("GET", `/api/admin/addons/${created.json.id}`, { headers: admin });
  assert.is(got.status, 200);
  assert.equal(got.json.events, ["feature-archived", "feature-revived"]);
  assert.equal(got.json.parameters, masked);

  const removed = await srv.call("DELETE", `/api/admin/addons/${created.json.id}`, { headers: admin });
  assert.is(removed.status, 200);
  assert.equal(removed.json.parameters, masked);
  assert.is((await srv.call("GET", `/api/admin/addons/${created.json.id}`, { headers: admin })).status, 404);
  assert.is((await srv.call("GET", `/api/admin/addons/${created.json.id}/events`, { headers: admin })).status, 404);
  const events = await db
    .selectFrom("events")
    .select(["type", "data", "pre_data"])
    .where("type", "like", "addon-config-%")
    .orderBy("id")
    .execute();
  assert.equal(
    events.map((e) => e.type),
    ["addon-config-created", "addon-config-updated", "addon-config-deleted"],
  );
  const recorded = JSON.stringify(events);
  for (const value of [receiver.url, authorization, "X-Team", secret]) assert.not.ok(recorded.includes(value), `the events hold ${value}`);
});

test("a PUT to a new URL must enter its secrets again: a ***** is not carried to it", async () => {
  const authorization = "Bearer for-the-first-receiver-only";
  const created = await srv.call("POST", "/api/admin/addons", {
    headers: admin,
    body: { provider: "webhook", parameters: { url: receiver.url, authorization }, events: ["feature-archived"], enabled: false },
  });
  assert.is(created.status, 201, JSON.stringify(created.json));
  const moved = await srv.call("PUT", `/api/admin/addons/${created.json.id}`, {
    headers: admin,
    body: { parameters: { url: "https://93.184.215.14/elsewhere", authorization: "*****" } },
  });
  assert.is(moved.status, 400, JSON.stringify(moved.json));
  assert.is(moved.json.name, "ValidationError");
  assert.equal(moved.json.details, [
    {
      path: "parameters.authorization",
      message: "must be entered again when the url changes: a stored secret is not sent to a new address",
    },
  ]);
  const stored = await db.selectFrom("addons").select("parameters").where("id", "=", created.json.id).executeTakeFirstOrThrow();
  assert.equal(stored.parameters, { url: receiver.url, authorization });
  // Entered again, it is taken; the signing secret, which never leaves Vexil, is kept.
  const reentered = await srv.call("PUT", `/api/admin/addons/${created.json.id}`, {
    headers: admin,
    body: { parameters: { url: "https://93.184.215.14/elsewhere", authorization: "Bearer new", signingSecret: "*****" } },
  });
  assert.is(reentered.status, 200, JSON.stringify(reentered.json));
  const after = await db.selectFrom("addons").select("parameters").where("id", "=", created.json.id).executeTakeFirstOrThrow();
  assert.equal(after.parameters, { url: "https://93.184.215.14/elsewhere", authorization: "Bearer new" });
  await srv.call("DELETE", `/api/admin/addons/${created.json.id}`, { headers: admin });
});

test("bad integrations are a 400 naming each problem, and store nothing", async () => {
  const before = await countRows("addons");
  const cases: [unknown, string][] = [
    [{ provider: "teams", parameters: { url: receiver.url }, events: ["feature-created"] }, "provider"],
    [{ provider: "webhook", parameters: {}, events: ["feature-created"] }, "parameters.url"],
    [{ provider: "webhook", parameters: { url: "ftp://x" }, events: ["feature-created"] }, "parameters.url"],
    [{ provider: "webhook", parameters: { url: receiver.url }, events: ["feature-exploded"] }, "events.0"],
    [{ provider: "webhook", parameters: { url: receiver.url }, events: [] }, "events"],
    [
      { provider: "webhook", parameters: { url: receiver.url, customHeaders: "[1]" }, events: ["feature-created"] },
      "parameters.customHeaders",
    ],
    [{ provider: "webhook", parameters: { url: receiver.url, nope: "x" }, events: ["feature-created"] }, "parameters.nope"],
    [
      { provider: "webhook", parameters: { url: receiver.url, signingSecret: "short" }, events: ["feature-created"] },
      "parameters.signingSecret",
    ],
  ];
  for (const [body, path] of cases) {
    const res = await srv.call("POST", "/api/admin/addons", { headers: admin, body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.json.name, "ValidationError");
    assert.ok(
      res.json.details.some((d: { path: string }) => d.path === path),
      `${path} in ${JSON.stringify(res.json.details)}`,
    );
  }
  assert.is(await countRows("addons"), before);
  const editor = await userWithRole(srv, "editor");
  const refused = await srv.call("POST", "/api/admin/addons", {
    headers: editor.headers,
    body: { provider: "webhook", parameters: { url: receiver.url }, events: ["feature-created"] },
  });
  assert.is(refused.status, 403);
  assert.is(await countRows("addons"), before);
});

test("a burst of writes arrives exactly once each, signed, with its idempotency key; the deliveries are listed", async () => {
  const secret = "a signing secret of our own";
  const created = await srv.call("POST", "/api/admin/addons", {
    headers: admin,
    body: {
      provider: "webhook",
      parameters: { url: receiver.url, signingSecret: secret },
      events: ["feature-created"],
      projects: ["default"],
    },
  });
  assert.is(created.status, 201);
  assert.is(created.json.parameters.signingSecret, "*****", "a secret the caller sent is not echoed");
  const addonId = created.json.id as number;
  const names = Array.from({ length: 40 }, () => unique("burst"));
  const start = receiver.received.length;
  await Promise.all(names.map(createFeature));
  const expected = new Set(await Promise.all(names.map(async (n) => `vexil-${addonId}-${await eventIdOf("feature-created", n)}`)));
  const mine = () => receiver.received.slice(start).filter((r) => expected.has(String(r.headers["idempotency-key"])));
  await until(() => mine().length >= expected.size, "every feature-created delivered", 20_000);
  const keys = mine().map((r) => String(r.headers["idempotency-key"]));
  assert.is(new Set(keys).size, expected.size, "every event arrived");
  assert.is(keys.length, expected.size, "and none twice");
  for (const r of mine()) {
    const signature = `sha256=${createHmac("sha256", secret).update(r.body).digest("hex")}`;
    assert.is(r.headers["x-vexil-signature"], signature, "the signature verifies with the secret");
    assert.is(r.headers["content-type"], "application/json");
    const body = JSON.parse(r.body);
    assert.is(body.type, "feature-created");
    assert.ok(names.includes(body.featureName));
  }
  await until(
    async () =>
      (await db.selectFrom("addon_deliveries").select("id").where("addon_id", "=", addonId).where("state", "<>", "delivered").execute())
        .length === 0,
    "every delivery recorded as delivered",
    10_000,
  );
  const listed = await srv.call("GET", `/api/admin/addons/${addonId}/events?limit=5`, { headers: admin });
  assert.is(listed.status, 200);
  assert.is(listed.json.integrationEvents.length, 5);
  const first = listed.json.integrationEvents[0];
  assert.is(first.state, "delivered");
  assert.is(first.lastStatus, 200);
  assert.is(first.event.type, "feature-created");
  assert.is((await srv.call("GET", `/api/admin/addons/${addonId}/events?limit=0`, { headers: admin })).status, 400);
  await srv.call("PUT", `/api/admin/addons/${addonId}`, { headers: admin, body: { enabled: false } });
});

test("filters: another project's or environment's events are not queued; a body template and custom headers are used", async () => {
  const created = await srv.call("POST", "/api/admin/addons", {
    headers: admin,
    body: {
      provider: "webhook",
      parameters: {
        url: receiver.url,
        bodyTemplate: '{"what": "{{event.type}}", "flag": "{{event.featureName}}", "by": "{{event.createdBy}}"}',
        customHeaders: '{"X-Team": "flags"}',
        contentType: "application/json; charset=utf-8",
      },
      events: ["feature-environment-enabled"],
      environments: ["production"],
    },
  });
  assert.is(created.status, 201);
  const addonId = created.json.id as number;
  const name = unique("filtered");
  await createFeature(name);
  for (const env of ["development", "production"]) {
    const res = await srv.call("POST", `/api/admin/projects/default/features/${name}/environments/${env}/on`, { headers: admin });
    assert.is(res.status, 200, JSON.stringify(res.json));
  }
  const rows = await db
    .selectFrom("addon_deliveries as d")
    .innerJoin("events as e", "e.id", "d.event_id")
    .select(["e.environment"])
    .where("d.addon_id", "=", addonId)
    .execute();
  assert.equal(
    rows.map((r) => r.environment),
    ["production"],
    "only production's event was queued, in the write's transaction",
  );
  await until(() => receiver.received.some((r) => r.body.includes(`"flag": "${name}"`)), "the templated delivery", 10_000);
  const got = receiver.received.find((r) => r.body.includes(`"flag": "${name}"`));
  const templated = JSON.parse(got?.body ?? "{}");
  assert.is(templated.what, "feature-environment-enabled");
  assert.is(templated.flag, name);
  assert.is(got?.headers["x-team"], "flags");
  assert.is(got?.headers["content-type"], "application/json; charset=utf-8");
  await srv.call("PUT", `/api/admin/addons/${addonId}`, { headers: admin, body: { enabled: false } });
});

test("a JSON body template inserts text JSON-escaped: quotes and backslashes in a description keep the body valid", async () => {
  const created = await srv.call("POST", "/api/admin/addons", {
    headers: admin,
    body: {
      provider: "webhook",
      parameters: { url: receiver.url, bodyTemplate: '{"flag": "{{event.featureName}}", "about": "{{event.data.description}}"}' },
      events: ["feature-created"],
    },
  });
  assert.is(created.status, 201, JSON.stringify(created.json));
  const name = unique("escaped");
  const description = 'say "hi" \\ C:\\path\\ and a \\"quoted\\" end';
  const res = await srv.call("POST", "/api/admin/projects/default/features", { headers: admin, body: { name, description } });
  assert.is(res.status, 201, JSON.stringify(res.json));
  const key = `vexil-${created.json.id}-${await eventIdOf("feature-created", name)}`;
  await until(() => receiver.keys().has(key), "the templated delivery", 10_000);
  const body = receiver.received.find((r) => r.headers["idempotency-key"] === key)?.body ?? "";
  assert.equal(JSON.parse(body), { flag: name, about: description }, body);
  await srv.call("PUT", `/api/admin/addons/${created.json.id}`, { headers: admin, body: { enabled: false } });
});

test("`*` in projects and environments means all of them, as in Unleash", async () => {
  const created = await srv.call("POST", "/api/admin/addons", {
    headers: admin,
    body: {
      provider: "webhook",
      parameters: { url: receiver.url },
      events: ["feature-environment-enabled"],
      projects: ["*"],
      environments: ["*"],
    },
  });
  assert.is(created.status, 201, JSON.stringify(created.json));
  const name = unique("wildcard");
  await createFeature(name);
  const res = await srv.call("POST", `/api/admin/projects/default/features/${name}/environments/development/on`, { headers: admin });
  assert.is(res.status, 200, JSON.stringify(res.json));
  const key = `vexil-${created.json.id}-${await eventIdOf("feature-environment-enabled", name)}`;
  await until(() => receiver.keys().has(key), "the event delivered to the wildcard integration", 10_000);
  await srv.call("PUT", `/api/admin/addons/${created.json.id}`, { headers: admin, body: { enabled: false } });
});

test("without WEBHOOK_ALLOW_PRIVATE_TARGETS, URLs on or resolving to internal addresses are a 400 and store nothing", async () => {
  const strict = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "false" });
  try {
    const token = await adminToken(strict);
    const port = new URL(receiver.url).port;
    const urls = [
      receiver.url,
      `http://localhost:${port}/hook`,
      "http://10.0.0.5:8080/hook",
      "http://172.20.1.1/hook",
      "http://192.168.1.10/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://0.0.0.0/hook",
      "http://[::]/hook",
      "http://[::1]/hook",
      "http://[fd00::1]/hook",
      "http://[fe80::1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://[::ffff:10.0.0.5]/hook",
    ];
    for (const [i, url] of urls.entries()) {
      const provider = i % 2 ? "slack" : "webhook";
      const res = await strict.call("POST", "/api/admin/addons", {
        headers: token,
        body: { provider, parameters: { url }, events: ["feature-created"] },
      });
      assert.is(res.status, 400, `${provider} ${url}: ${JSON.stringify(res.json)}`);
      assert.is(res.json.name, "ValidationError");
      assert.equal(
        res.json.details.map((d: { path: string }) => d.path),
        ["parameters.url"],
      );
      assert.match(res.json.message, /parameters\.url must not be on a loopback, private, link-local or unspecified address/);
    }
    assert.is(Number((await strict.db.kysely.selectFrom("addons").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n), 0);

    // A public address is taken; changing it to an internal one is refused and keeps it.
    const created = await strict.call("POST", "/api/admin/addons", {
      headers: token,
      body: { provider: "webhook", parameters: { url: "https://93.184.215.14/hook" }, events: ["feature-created"] },
    });
    assert.is(created.status, 201, JSON.stringify(created.json));
    const moved = await strict.call("PUT", `/api/admin/addons/${created.json.id}`, {
      headers: token,
      body: { parameters: { url: receiver.url } },
    });
    assert.is(moved.status, 400, JSON.stringify(moved.json));
    assert.equal(
      moved.json.details.map((d: { path: string }) => d.path),
      ["parameters.url"],
    );
    const stored = await strict.db.kysely.selectFrom("addons").select("parameters").executeTakeFirstOrThrow();
    assert.equal(stored.parameters, { url: "https://93.184.215.14/hook" });
  } finally {
    await strict.close();
  }
});

test("without WEBHOOK_ALLOW_PRIVATE_TARGETS, a delivery to an internal address fails at once, saying only that", async () => {
  const strict = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "false", WEBHOOK_POLL_INTERVAL_MS: "100" });
  try {
    const token = await adminToken(strict);
    // Saved while the setting allowed it (or a name that resolved elsewhere then): the delivery checks again.
    const port = new URL(receiver.url).port;
    const ids: number[] = [];
    for (const url of [receiver.url, `http://localhost:${port}/hook`]) {
      const fields = { provider: "webhook", parameters: { url }, events: ["feature-created"] };
      ids.push((await createAddon(strict.db.kysely, null, fields, { allowPrivateTargets: true })).id);
    }
    const name = unique("inside");
    const res = await strict.call("POST", "/api/admin/projects/default/features", { headers: token, body: { name } });
    assert.is(res.status, 201, JSON.stringify(res.json));
    for (const id of ids) {
      await until(
        async () =>
          (await strict.call("GET", `/api/admin/addons/${id}/events`, { headers: token })).json.integrationEvents[0]?.state === "failed",
        `the delivery of integration ${id} refused`,
        10_000,
      );
      const shown = (await strict.call("GET", `/api/admin/addons/${id}/events`, { headers: token })).json.integrationEvents[0];
      assert.is(shown.lastError, "The target address is not allowed.");
      assert.is(shown.lastStatus, null);
      assert.is(shown.attempts, 1, "not retried: the rule, not the receiver, refused it");
    }
    assert.not.ok(
      receiver.received.some((r) => r.body.includes(name)),
      "nothing reached the receiver",
    );
  } finally {
    await strict.close();
  }
});

test("delivery never slows a write: writes answer at once while the receiver hangs", async () => {
  const hanging = await startWebhookReceiver();
  hanging.hang = true;
  const created = await srv.call("POST", "/api/admin/addons", {
    headers: admin,
    body: { provider: "webhook", parameters: { url: hanging.url }, events: ["feature-created"] },
  });
  try {
    const timings: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await createFeature(unique("unhindered"));
      timings.push(performance.now() - started);
    }
    // The worker waits up to WEBHOOK_TIMEOUT_MS (10 s) on the receiver; no write waited with it.
    assert.ok(Math.max(...timings) < 2_000, `write times ${timings.map((t) => t.toFixed(0)).join(", ")} ms`);
    await until(
      async () =>
        (await db.selectFrom("addon_deliveries").select("attempts").where("addon_id", "=", created.json.id).execute()).some(
          (r) => r.attempts > 0,
        ),
      "a delivery claimed while the writes went on",
      10_000,
    );
  } finally {
    await srv.call("DELETE", `/api/admin/addons/${created.json.id}`, { headers: admin });
    await hanging.close();
  }
});

test("a receiver that refuses for 30 s gets every event exactly once when it is back", async () => {
  const created = await srv.call("POST", "/api/admin/addons", {
    headers: admin,
    body: { provider: "webhook", parameters: { url: receiver.url }, events: ["feature-created"] },
  });
  const addonId = created.json.id as number;
  await receiver.refuse();
  const names = Array.from({ length: 10 }, () => unique("refused"));
  await Promise.all(names.map(createFeature));
  const refusedFrom = Date.now();
  // Retried while it refuses: each delivery was tried several times and is still pending.
  await until(
    async () => {
      const rows = await db.selectFrom("addon_deliveries").select(["attempts", "state"]).where("addon_id", "=", addonId).execute();
      return rows.length === names.length && rows.every((r) => r.attempts >= 3 && r.state === "pending");
    },
    "deliveries retried while the receiver refuses",
    20_000,
  );
  const failing = await srv.call("GET", `/api/admin/addons/${addonId}/events`, { headers: admin });
  assert.is(failing.json.integrationEvents[0].state, "pending");
  // docs/security.md: no error text, which would name the address and port tried.
  assert.is(failing.json.integrationEvents[0].lastError, "The receiver could not be reached.");
  assert.is(failing.json.integrationEvents[0].lastStatus, null);
  await until(() => Date.now() - refusedFrom >= 30_000, "30 s of refusal", 40_000);
  const start = receiver.received.length;
  await receiver.reopen();
  const expected = new Set(await Promise.all(names.map(async (n) => `vexil-${addonId}-${await eventIdOf("feature-created", n)}`)));
  const mine = () => receiver.received.slice(start).filter((r) => expected.has(String(r.headers["idempotency-key"])));
  await until(
    () => new Set(mine().map((r) => r.headers["idempotency-key"])).size === expected.size,
    "every event after the refusal",
    20_000,
  );
  assert.is(mine().length, expected.size, "each exactly once");
  await srv.call("PUT", `/api/admin/addons/${addonId}`, { headers: admin, body: { enabled: false } });
});

test("a delivery failing past WEBHOOK_GIVE_UP_AFTER_MS is recorded as failed and shown", async () => {
  const quick = await startTestServer({
    WEBHOOK_RETRY_BASE_MS: "50",
    WEBHOOK_POLL_INTERVAL_MS: "50",
    WEBHOOK_GIVE_UP_AFTER_MS: "1000",
  });
  const failing = await startWebhookReceiver();
  failing.answer = 500;
  try {
    const token = await adminToken(quick);
    const created = await quick.call("POST", "/api/admin/addons", {
      headers: token,
      body: { provider: "webhook", parameters: { url: failing.url }, events: ["feature-created"] },
    });
    await quick.call("POST", "/api/admin/projects/default/features", { headers: token, body: { name: "doomed" } });
    await until(
      async () =>
        (await quick.call("GET", `/api/admin/addons/${created.json.id}/events`, { headers: token })).json.integrationEvents[0]?.state ===
        "failed",
      "the delivery given up",
      15_000,
    );
    const shown = (await quick.call("GET", `/api/admin/addons/${created.json.id}/events`, { headers: token })).json.integrationEvents[0];
    assert.is(shown.lastStatus, 500);
    assert.is(shown.lastError, "The receiver answered 500.");
    assert.ok(shown.attempts > 1);
    assert.is(shown.nextAttemptAt, null);
    const scrape = await quick.call("GET", "/internal-backstage/prometheus");
    assert.match(String(scrape.json), /vexil_webhook_failures_total\{provider="webhook"\} [1-9]/);
  } finally {
    await failing.close();
    await quick.close();
  }
});

test("potentially stale flags go out through a Slack integration, as a readable message linking to the console", async () => {
  const created = await srv.call("POST", "/api/admin/addons", {
    headers: admin,
    body: { provider: "slack", parameters: { url: receiver.url, defaultChannel: "#flags" }, events: ["feature-potentially-stale-on"] },
  });
  assert.is(created.status, 201);
  const name = unique("old-flag");
  await createFeature(name);
  // Born long ago: older than its type's lifetime, so housekeeping marks it potentially stale.
  await sql`update features set created_at = now() - interval '400 days' where name = ${name}`.execute(db);
  await srv.app.housekeeping.tick();
  await until(
    () => receiver.received.some((r) => r.body.includes(name) && r.body.includes("potentially stale")),
    "the stale notice",
    10_000,
  );
  const message = JSON.parse(receiver.received.find((r) => r.body.includes(name))?.body ?? "{}");
  assert.is(message.channel, "#flags");
  assert.is(message.username, "Vexil");
  assert.ok(
    message.text.includes(
      `${srv.config.PUBLIC_URL ?? `http://${srv.config.HOST}:${srv.config.PORT}`}/projects/default/features/${name}|${name}>`,
    ),
    message.text,
  );
});

test.after(async () => {
  await receiver.close();
  await srv.close();
});

test.run();
