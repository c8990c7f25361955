import { createTestDb } from "@vexil/db/testing";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { until } from "./support/eventually.ts";
import { userWithRole } from "./support/principals.ts";
import { startTestServer } from "./support/test-server.ts";

const P = "/api/admin/projects/default";

test("a request that came due while the server was down is applied when it starts again", async () => {
  const db = await createTestDb();
  // The first instance must leave the database open for the second (an in-memory PGlite would
  // vanish with it), so its close() does not reach the database.
  const first = await startTestServer({ SCHEDULER_INTERVAL_MS: "0" }, { db: { ...db, close: async () => {} } });
  const admin = await userWithRole(first, "admin", "rs-admin");
  const author = await userWithRole(first, "editor", "rs-author");
  const approver = await userWithRole(first, "editor", "rs-approver");
  assert.is(
    (
      await first.call("PUT", `${P}/environments/production/change-requests/config`, {
        body: { changeRequestsEnabled: true, requiredApprovals: 1 },
        headers: admin.headers,
      })
    ).status,
    200,
  );
  assert.is((await first.call("POST", `${P}/features`, { body: { name: "restart" }, headers: admin.headers })).status, 201);
  const created = await first.call("POST", `${P}/environments/production/change-requests`, {
    body: {
      feature: "restart",
      action: "patchVariant",
      payload: { variants: [{ name: "after-restart", weight: 1000, weightType: "variable", stickiness: "default" }] },
    },
    headers: author.headers,
  });
  const id: number = created.json.id;
  assert.is(
    (await first.call("PUT", `${P}/change-requests/${id}/state`, { body: { state: "In review" }, headers: author.headers })).json.state,
    "In review",
  );
  assert.is(
    (await first.call("PUT", `${P}/change-requests/${id}/state`, { body: { state: "Approved" }, headers: approver.headers })).json.state,
    "Approved",
  );
  const scheduledAt = new Date(Date.now() + 3600_000).toISOString();
  assert.is(
    (await first.call("PUT", `${P}/change-requests/${id}/state`, { body: { state: "Scheduled", scheduledAt }, headers: approver.headers }))
      .json.state,
    "Scheduled",
  );
  await first.close();

  // While no server runs, the request comes due.
  await db.kysely
    .updateTable("change_requests")
    .set({ scheduled_at: new Date(Date.now() - 60_000) })
    .where("id", "=", id)
    .execute();

  // An hour's interval: only the pass the scheduler makes at start can apply it within the test.
  const second = await startTestServer({ SCHEDULER_INTERVAL_MS: "3600000" }, { db });
  try {
    const state = async () => (await second.call("GET", `${P}/change-requests/${id}`, { headers: admin.headers })).json.state;
    await until(async () => (await state()) === "Applied", "the pass at start to apply the due request", 15_000);
    assert.is(await state(), "Applied");
    const variants = await second.call("GET", `${P}/features/restart/environments/production/variants`, { headers: admin.headers });
    assert.equal(
      variants.json.variants.map((v: { name: string }) => v.name),
      ["after-restart"],
    );
    const applied = await db.kysely.selectFrom("events").select("id").where("type", "=", "change-request-applied").execute();
    assert.is(applied.length, 1);
  } finally {
    await second.close();
  }
});

test.run();
