import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectDatabase } from "@vexil/db";
import { createTestDb, type TestDb } from "@vexil/db/testing";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runVexil } from "./support/run-cli.ts";
import { type Reply, startTestServer } from "./support/test-server.ts";

const PASSWORD = "demo-password";
const ADMIN_TOKEN = "*:*.moved-admin-token-0123456789";
const scratch = mkdtempSync(join(tmpdir(), "vexil-move-"));
const embedded = (name: string) => ({
  env: { DATA_DIR: join(scratch, name) },
  open: () => connectDatabase({ dataDir: join(scratch, name) }) as TestDb,
});

async function vexil(args: string[], env: Record<string, string>, input?: string): Promise<string> {
  const run = await runVexil(args, { env, ...(input === undefined ? {} : { input }) });
  assert.is(run.code, 0, `vexil ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
}

/** An error's id is new in every answer; the rest must match. */
const withoutErrorId = (reply: Reply) => [reply.status, reply.status >= 400 ? { ...reply.json, id: undefined } : reply.json];

/**
 * What the admin API answers about everything, asked with the admin token and alice's personal
 * token. Only reads: a login would change what user-admin answers (seenAt).
 */
async function answers(db: TestDb, aliceToken: string): Promise<Record<string, unknown>> {
  const srv = await startTestServer({ INIT_ADMIN_API_TOKENS: ADMIN_TOKEN, SCHEDULER_INTERVAL_MS: "0" }, { db });
  try {
    const seen: Record<string, unknown> = {};
    const get = async (path: string, authorization = ADMIN_TOKEN) => {
      const reply = await srv.call("GET", path, { headers: { authorization } });
      assert.is(reply.status, 200, `${path}: ${JSON.stringify(reply.json)}`);
      seen[`${authorization === ADMIN_TOKEN ? "admin" : "alice"} ${path}`] = reply.json;
      return reply.json;
    };
    await get("/api/admin/banners");
    await get("/api/admin/environments");
    await get("/api/admin/user-admin");
    await get("/api/admin/api-tokens");
    await get("/api/admin/user/tokens", aliceToken);
    await get("/api/admin/tag-types");
    await get("/api/admin/tags");
    for (const project of (await get("/api/admin/projects")).projects as { id: string }[]) {
      const environments = ((await get("/api/admin/environments")).environments as { name: string }[]).map((e) => e.name);
      await get(`/api/admin/projects/${project.id}/change-requests/config`);
      await get(`/api/admin/projects/${project.id}/change-requests/pending`, aliceToken);
      for (const feature of (await get(`/api/admin/projects/${project.id}/features`)).features as { name: string }[]) {
        await get(`/api/admin/projects/${project.id}/features/${feature.name}`);
        await get(`/api/admin/features/${feature.name}/tags`);
        for (const environment of environments) {
          const path = `/api/admin/projects/${project.id}/features/${feature.name}/environments/${environment}/variants`;
          seen[`admin ${path}`] = withoutErrorId(await srv.call("GET", path, { headers: { authorization: ADMIN_TOKEN } }));
        }
      }
    }
    for (let id = 1; id <= 8; id++) {
      seen[`change request ${id}`] = withoutErrorId(
        await srv.call("GET", `/api/admin/projects/demo/change-requests/${id}`, { headers: { authorization: ADMIN_TOKEN } }),
      );
    }
    return seen;
  } finally {
    await srv.close();
  }
}

/** Everything but the export time and the digest that covers it. */
const comparable = (document: string) => document.replace(/"exportedAt":"[^"]+"/, "").replace(/"sha256":"[0-9a-f]+"/, "");

test("the demo, a banner, tags and tokens move PGlite -> Postgres -> PGlite and every API answer stays the same", async () => {
  const first = embedded("first");
  const demo = await vexil(["demo"], first.env, `${PASSWORD}\n`);
  const aliceToken = /^ {2}alice +(user:[0-9a-f]{64})$/m.exec(demo)?.[1] as string;
  await vexil(["token", "create", "--name", "ci", "--type", "admin"], first.env);
  const srv = await startTestServer({ INIT_ADMIN_API_TOKENS: ADMIN_TOKEN }, { db: first.open() });
  for (const message of ["Maintenance at **noon**", "Second, shown first"]) {
    const posted = await srv.call("POST", "/api/admin/banners", {
      headers: { authorization: ADMIN_TOKEN },
      body: { message, variant: "warning" },
    });
    assert.is(posted.status, 201);
  }
  // Tags move with the rest: a type of its own colour and a demo flag tagged with it.
  const headers = { authorization: ADMIN_TOKEN };
  const tagType = await srv.call("POST", "/api/admin/tag-types", { headers, body: { name: "squad", color: "#336699" } });
  assert.is(tagType.status, 201);
  const tagged = await srv.call("POST", "/api/admin/features/checkout-flow/tags", { headers, body: { type: "squad", value: "Payments" } });
  assert.is(tagged.status, 201, JSON.stringify(tagged.json));
  await srv.close();
  const expected = await answers(first.open(), aliceToken);
  const document = await vexil(["export"], first.env);

  // The middle stop is a real Postgres when there is one, else another embedded database.
  const middleDb = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL ? await createTestDb() : undefined;
  const middle = middleDb
    ? {
        env: { DATABASE_URL: middleDb.databaseUrl as string },
        open: () => connectDatabase({ databaseUrl: middleDb.databaseUrl, poolSize: 2 }) as TestDb,
      }
    : embedded("middle");
  try {
    await vexil(["import"], middle.env, document);
    assert.equal(await answers(middle.open(), aliceToken), expected);
    const again = await vexil(["export"], middle.env);
    assert.is(comparable(again), comparable(document));

    const last = embedded("last");
    await vexil(["import"], last.env, again);
    assert.equal(await answers(last.open(), aliceToken), expected);
    assert.is(comparable(await vexil(["export"], last.env)), comparable(document));

    // The password hashes moved too: alice logs in with the demo password.
    const srv = await startTestServer({}, { db: last.open() });
    const login = await srv.call("POST", "/auth/simple/login", { body: { username: "alice", password: PASSWORD } });
    await srv.close();
    assert.is(login.status, 200, JSON.stringify(login.json));

    // A second import into the same database is refused: it is no longer new.
    const refused = await runVexil(["import"], { env: last.env, input: again });
    assert.equal([refused.code, refused.stdout], [1, ""]);
    assert.match(refused.stderr, "vexil import: the database is not empty");
  } finally {
    await middleDb?.close();
  }
});

test.after(() => rmSync(scratch, { recursive: true, force: true }));

test.run();
