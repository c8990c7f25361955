import { connectDatabase } from "@vexil/db";
import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  createClientMetricsBuffer,
  createFeature,
  FLAG_CHANGES_CHANNEL,
  featureLifecycle,
  setFeatureEnvironmentEnabled,
  storeClientMetrics,
} from "../src/index.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { kysely: db } = testDb;

let seq = 0;
const newFlag = async (prefix = "flush") => (await createFeature(db, null, "default", { name: `${prefix}-${++seq}` })).name;

/** One SDK report, drained from a buffer of its own: counts as the flush receives them. */
function drained(environment: string, toggles: Record<string, { yes: number; no: number }>, appName = "flush-test") {
  const buffer = createClientMetricsBuffer();
  const now = new Date().toISOString();
  buffer.add(environment, { appName, instanceId: "i", bucket: { start: now, stop: now, toggles } });
  return buffer.drain();
}
const seenAt = (counts: ReturnType<typeof drained>, at: Date) => counts.map((c) => ({ ...c, seenAt: c.seenAt && at }));

const lastSeen = async (flag: string) => {
  const feature = await db.selectFrom("features").select("last_seen_at").where("name", "=", flag).executeTakeFirstOrThrow();
  const environments = await db
    .selectFrom("feature_environments")
    .select(["environment_name", "last_seen_at"])
    .where("feature_name", "=", flag)
    .orderBy("environment_name")
    .execute();
  const seen: Record<string, Date | null> = { feature: feature.last_seen_at };
  for (const e of environments) seen[e.environment_name] = e.last_seen_at;
  return seen;
};
const stages = async (flag: string) => (await featureLifecycle(db, { projectId: "default", featureName: flag })).map((s) => s.stage);

test("a flush stamps last seen per flag and per environment, only for flags that were evaluated", async () => {
  const [seen, zero] = [await newFlag(), await newFlag()];
  const before = Date.now();
  await storeClientMetrics(db, drained("development", { [seen]: { yes: 1, no: 2 }, [zero]: { yes: 0, no: 0 }, ghost: { yes: 1, no: 0 } }));
  const stored = await lastSeen(seen);
  assert.ok(stored.feature && stored.feature.getTime() >= before - 1000, "the flag's last seen is when the report came");
  assert.equal(stored, { feature: stored.feature, development: stored.feature });
  assert.equal(await lastSeen(zero), { feature: null }, "a flag reported with no evaluations was not seen");
  assert.equal(await db.selectFrom("feature_lifecycles").select("stage").where("feature_name", "=", "ghost").execute(), []);
});

test("a later flush of older reports never moves last seen back, per flag or per environment", async () => {
  const flag = await newFlag();
  const [early, late] = [new Date("2026-11-24T08:00:00.000Z"), new Date("2026-11-24T09:00:00.000Z")];
  await storeClientMetrics(db, seenAt(drained("development", { [flag]: { yes: 1, no: 0 } }), late));
  await storeClientMetrics(db, seenAt(drained("development", { [flag]: { yes: 1, no: 0 } }), early));
  await storeClientMetrics(db, seenAt(drained("production", { [flag]: { yes: 1, no: 0 } }), early));
  assert.equal(await lastSeen(flag), { feature: late, development: late, production: early });
  const later = new Date("2026-11-24T10:00:00.000Z");
  await storeClientMetrics(db, seenAt(drained("production", { [flag]: { yes: 0, no: 1 } }), later));
  assert.equal(await lastSeen(flag), { feature: later, development: late, production: later });
});

test("reports move a flag to pre-live in any environment, to live only where it is on in a production environment", async () => {
  const flag = await newFlag();
  assert.equal(await stages(flag), ["initial"]);
  await storeClientMetrics(db, drained("production", { [flag]: { yes: 0, no: 3 } }));
  assert.equal(await stages(flag), ["initial", "pre-live"], "seen in production while off there");
  await setFeatureEnvironmentEnabled(db, null, { projectId: "default", featureName: flag, environment: "production" }, true);
  assert.equal(await stages(flag), ["initial", "pre-live"], "turning it on is not being seen");
  await storeClientMetrics(db, drained("development", { [flag]: { yes: 1, no: 0 } }));
  assert.equal(await stages(flag), ["initial", "pre-live"], "seen again outside production");
  await storeClientMetrics(db, drained("production", { [flag]: { yes: 1, no: 0 } }));
  assert.equal(await stages(flag), ["initial", "pre-live", "live"]);
  const rows = await db.selectFrom("feature_lifecycles").select("stage").where("feature_name", "=", flag).execute();
  assert.is(rows.length, 3, "each stage is entered once");
});

test("a flush that only moves last seen tells no instance that flags changed; a new environment row does", async () => {
  const flag = await newFlag();
  const messages: string[] = [];
  let listening!: () => void;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const listener = testDb.listen(FLAG_CHANGES_CHANNEL, {
    onMessage: (m) => messages.push(m),
    onListening: () => listening(),
    onLost: () => {},
  });
  await ready;
  try {
    await storeClientMetrics(db, drained("development", { [flag]: { yes: 1, no: 0 } }));
    assert.equal(messages, ["feature_environments"], "the flag's first report in an environment adds its row there");
    messages.length = 0;
    await storeClientMetrics(db, drained("development", { [flag]: { yes: 1, no: 0 } }));
    assert.ok((await lastSeen(flag)).development, "stored");
    assert.equal(messages, [], "last seen alone is not a change SDKs are served");
    // Our own notices arrive before the write returns (db/listener.ts): a real change is heard at once.
    await db.updateTable("features").set({ description: "changed" }).where("name", "=", flag).execute();
    assert.equal(messages, ["features"]);
  } finally {
    await listener.close();
  }
});

// Two instances need a real Postgres: PGlite serves one process, one transaction at a time.
if (testDb.databaseUrl) {
  const databaseUrl = testDb.databaseUrl;

  /** Holds `table` in exclusive mode (which a row lock waits for) until both flushes wait for it, then lets them race through its rows. */
  async function raceThrough(table: "features", flushes: () => Promise<unknown>[]): Promise<void> {
    const gate = connectDatabase({ databaseUrl, poolSize: 1 });
    let opened!: () => void;
    const held = new Promise<void>((resolve) => (opened = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const gating = gate.kysely.transaction().execute(async (trx) => {
      await sql`lock table ${sql.table(table)} in exclusive mode`.execute(trx);
      opened();
      await released;
    });
    try {
      await held;
      const racing = flushes();
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { rows } = await sql<{ waiting: number }>`
          select count(*)::int as waiting from pg_locks l join pg_class c on c.oid = l.relation
          where c.relname = ${table} and not l.granted`.execute(db);
        if (rows[0]?.waiting === 2) break;
        assert.ok(Date.now() < deadline, "both flushes reached the gate");
        await new Promise((resolve) => setImmediate(resolve));
      }
      release();
      await Promise.all(racing);
    } finally {
      release();
      await gating;
      await gate.close();
    }
  }

  test("two instances flushing the same flags in opposite orders at once both store, without a deadlock", async () => {
    // Enough rows that two flushes taking them in different orders meet in the middle (with 60 they rarely did).
    const flags = Array.from({ length: 400 }, (_, i) => `race-${String(i).padStart(3, "0")}`);
    await db
      .insertInto("features")
      .values(flags.map((name) => ({ name, project_id: "default" })))
      .execute();
    const report = (names: string[]) => Object.fromEntries(names.map((name) => [name, { yes: 1, no: 1 }]));
    const reversed = [...flags].reverse();
    // Both wait at the flags' rows, which every flush locks first, then race through the same application's counts.
    const instances = [connectDatabase({ databaseUrl, poolSize: 1 }), connectDatabase({ databaseUrl, poolSize: 1 })];
    try {
      await raceThrough("features", () => [
        storeClientMetrics(instances[0]!.kysely, [
          ...drained("development", report(flags), "same"),
          ...drained("production", report(flags), "same"),
        ]),
        storeClientMetrics(instances[1]!.kysely, [
          ...drained("production", report(reversed), "same"),
          ...drained("development", report(reversed), "same"),
        ]),
      ]);
    } finally {
      await Promise.all(instances.map((i) => i.close()));
    }
    const seen = await db
      .selectFrom("feature_environments")
      .select("feature_name")
      .where("feature_name", "like", "race-%")
      .where("last_seen_at", "is not", null)
      .execute();
    assert.is(seen.length, flags.length * 2, "every flag seen in both environments");
    const live = await db
      .selectFrom("feature_lifecycles")
      .select("feature_name")
      .where("feature_name", "like", "race-%")
      .where("stage", "=", "pre-live")
      .execute();
    assert.is(live.length, flags.length);
    const counted = await db
      .selectFrom("client_metrics")
      .select((eb) => eb.fn.sum<number>("yes").as("yes"))
      .where("app_name", "=", "same")
      .executeTakeFirstOrThrow();
    assert.is(Number(counted.yes), flags.length * 2 * 2, "both flushes' counts were added");
  });
}

test.after(async () => {
  await testDb.close();
});

test.run();
