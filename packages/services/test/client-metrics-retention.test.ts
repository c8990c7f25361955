import { connectDatabase, type Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { METRICS_ROLL_UP_LOCK_KEY } from "../src/client-metrics-retention/roll-up-client-metrics.ts";
import type { MetricCounts } from "../src/client-metrics/client-metrics-buffer.ts";
import { createClientMetricsBuffer, createFeature, rollUpClientMetrics, storeClientMetrics } from "../src/index.ts";
import { openTestDb } from "./support/test-db.ts";

const testDb = await openTestDb();
const { kysely: db } = testDb;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// The simulated fleet: 1,000 SDK instances of 20 applications, each application in two environments
// and evaluating 8 of 30 flags, two of them with two variants; every instance reports every 60 s.
const INSTANCES = 1000;
const APPS = 20;
const FLAGS = Array.from({ length: 30 }, (_, i) => `retention-${String(i).padStart(2, "0")}`);
const REPORTS_PER_HOUR = 60;
const instance = (i: number) => {
  const app = i % APPS;
  const toggles: Record<string, { yes: number; no: number; variants?: Record<string, number> }> = {};
  for (let k = 0; k < 8; k++) {
    const yes = 1 + ((i + k) % 3);
    toggles[FLAGS[(app * 3 + k) % FLAGS.length] as string] = {
      yes,
      no: k % 2,
      ...(k < 2 ? { variants: { blue: yes - 1, green: 1 } } : {}),
    };
  }
  return {
    appName: `fleet-${app}`,
    instanceId: `instance-${i}`,
    environment: i % (2 * APPS) < APPS ? "development" : "production",
    toggles,
  };
};
const FLEET = Array.from({ length: INSTANCES }, (_, i) => instance(i));
/** Rows one hour adds: counts per flag, environment and application, and their variant counts. */
const KEYS_PER_HOUR = APPS * 2 * 8;
const VARIANT_KEYS_PER_HOUR = APPS * 2 * 2 * 2;

for (const name of FLAGS) await createFeature(db, null, "default", { name });

/**
 * One hour of the fleet's reports, summed by the buffer the server sums reports in: each
 * instance's 60 reports of that hour as one report of 60 times the counts (time-compressed, with
 * explicit timestamps).
 */
function fleetHour(hour: Date): MetricCounts[] {
  const buffer = createClientMetricsBuffer();
  const start = hour.toISOString();
  const stop = new Date(hour.getTime() + HOUR - 1).toISOString();
  for (const sdk of FLEET) {
    const toggles = Object.fromEntries(
      Object.entries(sdk.toggles).map(([flag, t]) => [
        flag,
        {
          yes: t.yes * REPORTS_PER_HOUR,
          no: t.no * REPORTS_PER_HOUR,
          ...(t.variants ? { variants: Object.fromEntries(Object.entries(t.variants).map(([v, n]) => [v, n * REPORTS_PER_HOUR])) } : {}),
        },
      ]),
    );
    buffer.add(sdk.environment, { appName: sdk.appName, instanceId: sdk.instanceId, bucket: { start, stop, toggles } });
  }
  return buffer.drain();
}

// Every hour sums to the same counts: the reports are parsed and summed once, and each simulated
// hour stores those sums stamped with its own hour, through the store function the flush calls.
const HOUR_SUMS = fleetHour(new Date(0));
const feedHour = (hour: Date) =>
  storeClientMetrics(
    db,
    HOUR_SUMS.map((c) => ({ ...c, hour, variants: new Map(c.variants) })),
  );

/** What the fleet reports in one hour, summed: the figures the tables must keep. */
const FED_PER_HOUR = FLEET.reduce(
  (sum, sdk) => {
    for (const t of Object.values(sdk.toggles)) {
      sum.yes += t.yes * REPORTS_PER_HOUR;
      sum.no += t.no * REPORTS_PER_HOUR;
      for (const n of Object.values(t.variants ?? {})) sum.variants += n * REPORTS_PER_HOUR;
    }
    return sum;
  },
  { yes: 0, no: 0, variants: 0 },
);

interface Stored {
  hourly: number;
  daily: number;
  yes: number;
  no: number;
  variants: number;
}

/** Rows of the hourly and the daily tables (counts and variants), and every count they hold from `from` on. */
async function stored(conn: Kysely<Database>, from = new Date(0)): Promise<Stored> {
  const { rows } = await sql<Record<keyof Stored, string>>`
    select
      (select count(*) from client_metrics) + (select count(*) from client_metric_variants) as hourly,
      (select count(*) from client_metrics_daily) + (select count(*) from client_metric_variants_daily) as daily,
      (select coalesce(sum(yes), 0) from client_metrics where hour >= ${from}) + (select coalesce(sum(yes), 0) from client_metrics_daily where day >= ${from}) as yes,
      (select coalesce(sum(no), 0) from client_metrics where hour >= ${from}) + (select coalesce(sum(no), 0) from client_metrics_daily where day >= ${from}) as no,
      (select coalesce(sum(count), 0) from client_metric_variants where hour >= ${from})
        + (select coalesce(sum(count), 0) from client_metric_variants_daily where day >= ${from}) as variants`.execute(conn);
  const row = rows[0] as Record<keyof Stored, string>;
  return { hourly: Number(row.hourly), daily: Number(row.daily), yes: Number(row.yes), no: Number(row.no), variants: Number(row.variants) };
}

const clear = async () => {
  for (const table of ["client_metrics", "client_metric_variants", "client_metrics_daily", "client_metric_variants_daily"] as const) {
    await db.deleteFrom(table).execute();
  }
};

const startOfDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY) * DAY);

test("a simulated week of 1,000 SDK instances reporting every 60 s: the tables stay bounded and the roll-up keeps every count", async () => {
  await clear();
  const retentionDays = 5;
  const weekStart = new Date("2026-01-05T00:00:00.000Z");
  const rowsPerHour = KEYS_PER_HOUR + VARIANT_KEYS_PER_HOUR;
  const afterPass: Stored[] = [];
  for (let h = 0; h < 7 * 24; h++) {
    const hour = new Date(weekStart.getTime() + h * HOUR);
    await feedHour(hour);
    // Housekeeping at the end of the hour, on the simulated clock.
    const now = new Date(hour.getTime() + HOUR);
    const keepFrom = new Date(startOfDay(now).getTime() - retentionDays * DAY);
    const kept = await stored(db, keepFrom);
    const pass = await rollUpClientMetrics(db, { retentionDays, now });
    assert.is(pass.skipped, false);
    const after = await stored(db);
    afterPass.push(after);
    // Totals are preserved: what the pass did not delete as past the retention is all still there.
    assert.equal([after.yes, after.no, after.variants], [kept.yes, kept.no, kept.variants], `hour ${h}: totals changed`);
    // Bounded: hours for two to three days, days for the retention less those two.
    assert.ok(after.hourly <= 72 * rowsPerHour, `hour ${h}: ${after.hourly} hourly rows`);
    assert.ok(after.daily <= (retentionDays - 2) * rowsPerHour, `hour ${h}: ${after.daily} daily rows`);
  }
  const last = afterPass.at(-1) as Stored;
  // Without the roll-up the week would be 168 hours of rows; with it, a steady state: the same rows
  // at the same hour of the last two days.
  assert.ok(last.hourly + last.daily < (7 * 24 * rowsPerHour) / 2, `${last.hourly + last.daily} rows after a week`);
  for (let h = 0; h < 24; h++) {
    const [day6, day7] = [afterPass[5 * 24 + h], afterPass[6 * 24 + h]] as [Stored, Stored];
    assert.equal([day7.hourly, day7.daily], [day6.hourly, day6.daily], `hour ${h} of the last two days`);
  }
  // Exactly what the fleet reported, per day kept: three days as days, the last two as hours.
  const byDay = await sql<{ day: Date; yes: string; no: string; hourly: boolean }>`
    select day, sum(yes) as yes, sum(no) as no, false as hourly from client_metrics_daily group by day
    union all
    select date_trunc('day', hour, 'UTC'), sum(yes), sum(no), true from client_metrics group by 1
    order by day`.execute(db);
  assert.equal(
    byDay.rows.map((r) => [r.day.toISOString().slice(0, 10), Number(r.yes), Number(r.no), r.hourly]),
    [
      ["2026-01-07", 24 * FED_PER_HOUR.yes, 24 * FED_PER_HOUR.no, false],
      ["2026-01-08", 24 * FED_PER_HOUR.yes, 24 * FED_PER_HOUR.no, false],
      ["2026-01-09", 24 * FED_PER_HOUR.yes, 24 * FED_PER_HOUR.no, false],
      ["2026-01-10", 24 * FED_PER_HOUR.yes, 24 * FED_PER_HOUR.no, true],
      ["2026-01-11", 24 * FED_PER_HOUR.yes, 24 * FED_PER_HOUR.no, true],
    ],
  );
  assert.is(last.variants, 5 * 24 * FED_PER_HOUR.variants);
  assert.is(last.daily, 3 * rowsPerHour);
  assert.is(last.hourly, 48 * rowsPerHour);
});

test("a late report for a day already rolled up is added to that day at the next pass", async () => {
  await clear();
  const now = new Date("2026-02-10T12:00:00.000Z");
  const old = new Date("2026-02-06T09:00:00.000Z");
  await feedHour(old);
  assert.is((await rollUpClientMetrics(db, { retentionDays: 90, now })).hourlyRowsRolledUp, KEYS_PER_HOUR + VARIANT_KEYS_PER_HOUR);
  await feedHour(new Date("2026-02-06T15:00:00.000Z"));
  await rollUpClientMetrics(db, { retentionDays: 90, now });
  const after = await stored(db);
  assert.equal(after, {
    hourly: 0,
    daily: KEYS_PER_HOUR + VARIANT_KEYS_PER_HOUR,
    yes: 2 * FED_PER_HOUR.yes,
    no: 2 * FED_PER_HOUR.no,
    variants: 2 * FED_PER_HOUR.variants,
  });
});

test("a pass finds the lock held and skips, changing nothing; concurrent passes of two instances count everything once", async () => {
  if (!testDb.databaseUrl) return; // The embedded database has one session: there is no second instance to hold the lock.
  await clear();
  const now = new Date("2026-03-10T12:00:00.000Z");
  for (const at of ["2026-03-01T10:00:00.000Z", "2026-03-02T10:00:00.000Z", "2026-03-03T10:00:00.000Z", "2026-03-10T10:00:00.000Z"]) {
    await feedHour(new Date(at));
  }
  const before = await stored(db);
  const other = connectDatabase({ databaseUrl: testDb.databaseUrl, poolSize: 2 });
  try {
    await other.kysely.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(${METRICS_ROLL_UP_LOCK_KEY})`.execute(conn);
      try {
        assert.equal(await rollUpClientMetrics(db, { retentionDays: 90, now }), {
          skipped: true,
          hourlyRowsRolledUp: 0,
          dailyRowsDeleted: 0,
        });
        assert.equal(await stored(db), before);
      } finally {
        await sql`select pg_advisory_unlock(${METRICS_ROLL_UP_LOCK_KEY})`.execute(conn);
      }
    });
    const passes = await Promise.all([
      rollUpClientMetrics(db, { retentionDays: 90, now }),
      rollUpClientMetrics(other.kysely, { retentionDays: 90, now }),
      rollUpClientMetrics(db, { retentionDays: 90, now }),
    ]);
    const rows = KEYS_PER_HOUR + VARIANT_KEYS_PER_HOUR;
    assert.is(
      passes.reduce((sum, p) => sum + p.hourlyRowsRolledUp, 0),
      3 * rows,
      "each hourly row was rolled up by one pass",
    );
    const after = await stored(db);
    assert.equal(after, { ...before, hourly: rows, daily: 3 * rows });
  } finally {
    await other.close();
  }
});

test("days past the retention are deleted, counts and variants", async () => {
  await clear();
  await feedHour(new Date("2026-04-01T10:00:00.000Z"));
  await feedHour(new Date("2026-04-20T10:00:00.000Z"));
  const now = new Date("2026-04-25T12:00:00.000Z");
  const pass = await rollUpClientMetrics(db, { retentionDays: 10, now });
  const rows = KEYS_PER_HOUR + VARIANT_KEYS_PER_HOUR;
  assert.equal(pass, { skipped: false, hourlyRowsRolledUp: 2 * rows, dailyRowsDeleted: rows });
  const days = await db.selectFrom("client_metrics_daily").select("day").distinct().execute();
  assert.equal(
    days.map((d) => d.day.toISOString()),
    ["2026-04-20T00:00:00.000Z"],
  );
  const variantDays = await db.selectFrom("client_metric_variants_daily").select("day").distinct().execute();
  assert.equal(
    variantDays.map((d) => d.day.toISOString()),
    ["2026-04-20T00:00:00.000Z"],
  );
});

test.after(async () => {
  await testDb.close();
});

test.run();
