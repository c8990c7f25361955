import { createTestDb, type TestDb } from "@vexil/db/testing";
import type { Context, Unleash } from "unleash-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { peerSdk } from "./support/peer-sdk.ts";
import { clientToken } from "./support/principals.ts";
import { runVexil } from "./support/run-cli.ts";
import { seededRandom } from "./support/spec-contexts.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";
import { PEER_SKIP_REASON, PEER_TESTS, startUnleashPeer, type UnleashPeer } from "./support/unleash-peer.ts";

// `vexil migrate-from-unleash` against the real Unleash 8.2 (issue 25, docs/migrate-from-unleash.md):
// flags seeded through Unleash's admin API, a dry run that changes nothing, the migration into a
// fresh Vexil database, a second run that changes nothing, then the Node SDK against both servers
// on generated contexts: not one evaluation may differ.
const TITLE = "peer migrate";
/** Seeded contexts per flag, the goal (evaluation is in-process, a second or two); VEXIL_PEER_CONTEXTS changes it. */
const CONTEXTS = Number(process.env.VEXIL_PEER_CONTEXTS ?? 10_000);

if (!PEER_TESTS) {
  console.log(`${TITLE}: ${PEER_SKIP_REASON}`);
  test(`${TITLE}: ${PEER_SKIP_REASON}`, () => {});
} else {
  let unleash: UnleashPeer;
  let vexilDb: TestDb;
  let srv: TestServer | undefined;
  const sdks: Unleash[] = [];
  const migrate = (...extra: string[]) =>
    runVexil(["migrate-from-unleash", "--url", unleash.url, "--token", unleash.admin.authorization as string, ...extra], {
      env: { DATABASE_URL: vexilDb.databaseUrl as string },
    });
  const flagCount = async () =>
    Number(
      (
        await vexilDb.kysely
          .selectFrom("features")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test.before(async () => {
    [unleash, vexilDb] = await Promise.all([startUnleashPeer(), createTestDb()]);
    await seedUnleash(unleash);
  });
  test.after(async () => {
    for (const sdk of sdks) sdk.destroy();
    await srv?.close();
    await vexilDb.close();
    await unleash.stop();
  });

  test("a dry run prints the plan and changes nothing", async () => {
    const run = await migrate("--dry-run");
    assert.is(run.code, 0, run.stderr);
    assert.match(run.stdout, /Dry run: \d+ changes would be made/);
    assert.match(run.stdout, /default\/development: created feature peer\.rollout/);
    assert.match(run.stdout, /Not copied:\n {2}\d+ users?: /);
    assert.match(run.stdout, /Dry run: nothing was changed\.\n$/);
    assert.is(await flagCount(), 0);
  });

  test("the migration copies the flags; a second run changes nothing", async () => {
    const first = await migrate();
    assert.is(first.code, 0, first.stderr);
    assert.match(first.stdout, /Made \d+ changes/);
    assert.match(first.stdout, /create segment beta-testers/);
    assert.match(first.stdout, /create strategy type by-team/);
    assert.is(await flagCount(), FLAGS.length, first.stdout);
    const events = await vexilDb.kysely
      .selectFrom("events")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const second = await migrate();
    assert.is(second.code, 0, second.stderr);
    assert.match(second.stdout, /Nothing changed: /);
    const after = await vexilDb.kysely
      .selectFrom("events")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    assert.is(after.n, events.n);
    const tags = await vexilDb.kysely
      .selectFrom("feature_tags")
      .select(["feature_name", "tag_type", "tag_value"])
      .orderBy("feature_name")
      .execute();
    assert.equal(tags, [
      { feature_name: "peer.rollout", tag_type: "team", tag_value: "checkout" },
      { feature_name: "peer.variants", tag_type: "simple", tag_value: "experiment" },
    ]);
  });

  test(`the Node SDK evaluates ${CONTEXTS} generated contexts per flag the same against both servers`, async () => {
    srv = await startTestServer({}, { db: vexilDb });
    const vexilToken = (await clientToken(srv)).authorization as string;
    const sides = [
      peerSdk("Unleash", `${unleash.url}/api/`, unleash.client.authorization as string, "peer-migrate"),
      peerSdk("Vexil", `${srv.url}/api/`, vexilToken, "peer-migrate"),
    ];
    for (const side of sides) sdks.push(side.client);
    await Promise.all(sides.map((side) => side.synchronized));
    const [fromUnleash, fromVexil] = sides.map((side) => side.client) as [Unleash, Unleash];
    const random = seededRandom(25);
    const differences: string[] = [];
    let evaluations = 0;
    for (let i = 0; i < CONTEXTS; i++) {
      const context = generatedContext(random);
      for (const flag of FLAGS) {
        const u = [fromUnleash.isEnabled(flag, context), fromUnleash.getVariant(flag, context)];
        const v = [fromVexil.isEnabled(flag, context), fromVexil.getVariant(flag, context)];
        evaluations++;
        if (JSON.stringify(u) !== JSON.stringify(v) && differences.length < 5) {
          differences.push(`${flag} ${JSON.stringify(context)}: Unleash ${JSON.stringify(u)}, Vexil ${JSON.stringify(v)}`);
        }
      }
    }
    console.log(`${TITLE}: ${evaluations} evaluations (${CONTEXTS} contexts x ${FLAGS.length} flags) compared`);
    assert.equal(differences, []);
  });
}

const FLAGS = [
  "peer.rollout",
  "peer.segmented",
  "peer.variants",
  "peer.child",
  "peer.constrained",
  "peer.custom",
  "peer.mixed",
  "peer.off",
  "peer.remote",
];

/** Unleash's admin API, as a person would use it to build the flags the migration must carry over. */
async function seedUnleash(unleash: UnleashPeer): Promise<void> {
  const call = async (method: string, path: string, body: unknown, expected: number) => {
    const reply = await unleash.call(method, path, { body, headers: unleash.admin });
    assert.is(reply.status, expected, `${method} ${path}: ${JSON.stringify(reply.json)}`);
    return reply.json;
  };
  const env = (flag: string) => `/api/admin/projects/default/features/${flag}/environments/development`;
  const strategy = (flag: string, body: unknown) => call("POST", `${env(flag)}/strategies`, body, 200);
  const on = (flag: string) => call("POST", `${env(flag)}/on`, undefined, 200);

  await call("POST", "/api/admin/tag-types", { name: "team", description: "Who owns it" }, 201);
  await call(
    "POST",
    "/api/admin/strategies",
    {
      name: "by-team",
      description: "A strategy the SDKs implement",
      parameters: [{ name: "team", type: "string", description: "", required: true }],
    },
    201,
  );
  const segment = (await call(
    "POST",
    "/api/admin/segments",
    { name: "beta-testers", constraints: [{ contextName: "plan", operator: "IN", values: ["beta", "pro"] }] },
    201,
  )) as { id: number };
  for (const name of FLAGS) await call("POST", "/api/admin/projects/default/features", { name, description: `${name} seeded` }, 201);

  await strategy("peer.rollout", {
    name: "flexibleRollout",
    parameters: { rollout: "40", stickiness: "userId", groupId: "peer.rollout" },
    constraints: [{ contextName: "country", operator: "IN", values: ["NO", "SE", "DK"] }],
    variants: [
      { name: "blue", weight: 700, weightType: "variable", stickiness: "userId", payload: { type: "string", value: "b" } },
      { name: "green", weight: 300, weightType: "variable", stickiness: "userId" },
    ],
  });
  await strategy("peer.segmented", { name: "default", segments: [segment.id] });
  await strategy("peer.variants", {
    name: "flexibleRollout",
    parameters: { rollout: "100", stickiness: "default", groupId: "peer.variants" },
  });
  await call(
    "PUT",
    `/api/admin/projects/default/features/peer.variants/environments/development/variants`,
    [
      {
        name: "a",
        weightType: "variable",
        weight: 0,
        stickiness: "default",
        payload: { type: "json", value: '{"n":1}' },
        overrides: [{ contextName: "userId", values: ["7", "8"] }],
      },
      { name: "b", weightType: "fix", weight: 250, stickiness: "default", overrides: [] },
      { name: "c", weightType: "variable", weight: 0, stickiness: "default", overrides: [] },
    ],
    200,
  );
  await strategy("peer.child", { name: "default" });
  await call("POST", "/api/admin/projects/default/features/peer.child/dependencies", { feature: "peer.rollout", variants: ["blue"] }, 200);
  await strategy("peer.constrained", {
    name: "default",
    constraints: [
      { contextName: "appVersion", operator: "SEMVER_GTE", value: "2.1.0" },
      { contextName: "age", operator: "NUM_GT", value: "30", inverted: true },
      { contextName: "email", operator: "STR_ENDS_WITH", values: ["@EXAMPLE.com"], caseInsensitive: true },
    ],
  });
  await strategy("peer.constrained", {
    name: "flexibleRollout",
    parameters: { rollout: "25", stickiness: "sessionId", groupId: "peer.constrained" },
    constraints: [{ contextName: "currentTime", operator: "DATE_AFTER", value: "2020-01-01T00:00:00.000Z" }],
  });
  await strategy("peer.custom", { name: "by-team", parameters: { team: "core" } });
  await strategy("peer.mixed", { name: "default", disabled: true });
  await strategy("peer.mixed", {
    name: "flexibleRollout",
    parameters: { rollout: "60", stickiness: "default", groupId: "mixed" },
    segments: [segment.id],
  });
  await strategy("peer.off", { name: "default" });
  await strategy("peer.remote", { name: "remoteAddress", parameters: { IPs: "10.0.0.1,10.0.0.2,192.168.1.0/24" } });
  for (const flag of FLAGS) if (flag !== "peer.off") await on(flag);
  await call("POST", "/api/admin/features/peer.rollout/tags", { type: "team", value: "checkout" }, 201);
  await call("POST", "/api/admin/features/peer.variants/tags", { type: "simple", value: "experiment" }, 201);
}

function generatedContext(random: () => number): Context {
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const maybe = <T>(value: T): T | undefined => (random() < 0.8 ? value : undefined);
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries({
    country: maybe(pick(["NO", "SE", "DK", "FI", "no", "US"])),
    plan: maybe(pick(["beta", "pro", "free"])),
    appVersion: maybe(pick(["2.0.9", "2.1.0", "2.10.3", "1.99.0", "3.0.0-rc.1"])),
    age: maybe(String(Math.floor(random() * 60))),
    email: maybe(`${Math.floor(random() * 1000)}@${pick(["example.com", "EXAMPLE.COM", "other.org"])}`),
  })) {
    if (value !== undefined) properties[key] = value;
  }
  return {
    userId: maybe(String(Math.floor(random() * 100_000))),
    // Always a session: with neither userId nor sessionId, "default" stickiness is random, on each SDK apart.
    sessionId: `s-${Math.floor(random() * 1_000_000)}`,
    remoteAddress: maybe(pick(["10.0.0.1", "10.0.0.3", `192.168.1.${Math.floor(random() * 255)}`, "192.168.2.1"])),
    properties,
  };
}

test.run();
