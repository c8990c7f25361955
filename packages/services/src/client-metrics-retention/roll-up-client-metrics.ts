import type { Database } from "@vexil/db";
import { type Kysely, sql, type Transaction } from "kysely";

// Any constant that no other part of Vexil uses as an advisory lock key.
export const METRICS_ROLL_UP_LOCK_KEY = 7_401_351;

const DAY_MS = 86_400_000;
/** Hours are kept as hours at least this long (docs/sdk-protocols.md#metrics-storage). */
const HOURLY_WINDOW_HOURS = 48;

export interface MetricsRetention {
  /** Whole days (UTC) kept per day before today; older days are deleted. */
  retentionDays: number;
  /** The clock of the pass; the tests give a simulated one. */
  now?: Date;
}

/** What one pass did, or `skipped` when another instance's pass held the lock. */
export interface MetricsRollUp {
  skipped: boolean;
  /** Hourly rows (counts and variant counts) summed into daily rows and deleted. */
  hourlyRowsRolledUp: number;
  /** Daily rows (counts and variant counts) deleted as older than the retention. */
  dailyRowsDeleted: number;
}

const startOfUtcDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/**
 * Housekeeping's pass over the stored SDK metrics (docs/sdk-protocols.md#metrics-storage): the
 * hours of every UTC day that ended more than HOURLY_WINDOW_HOURS ago are summed into that day's
 * rows and deleted, one day per transaction, oldest first; then days older than the retention are
 * deleted. One instance at a time: the pass holds a session advisory lock, and an instance that
 * finds it taken skips its pass (the other one does the work). Totals are kept: a count leaves the
 * hourly table in the same transaction that adds it to the daily one.
 */
export async function rollUpClientMetrics(db: Kysely<Database>, retention: MetricsRetention): Promise<MetricsRollUp> {
  const now = retention.now ?? new Date();
  const rollUpBefore = startOfUtcDay(new Date(now.getTime() - HOURLY_WINDOW_HOURS * 3_600_000));
  const keepFrom = new Date(startOfUtcDay(now).getTime() - retention.retentionDays * DAY_MS);
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${METRICS_ROLL_UP_LOCK_KEY}) as locked`.execute(conn);
    if (!rows[0]?.locked) return { skipped: true, hourlyRowsRolledUp: 0, dailyRowsDeleted: 0 };
    try {
      let hourlyRowsRolledUp = 0;
      for (;;) {
        const moved = await conn.transaction().execute((trx) => rollUpOldestDay(trx, rollUpBefore));
        if (moved === null) break;
        hourlyRowsRolledUp += moved;
      }
      const dailyRowsDeleted = await conn.transaction().execute(async (trx) => {
        const counts = await trx.deleteFrom("client_metrics_daily").where("day", "<", keepFrom).executeTakeFirst();
        const variants = await trx.deleteFrom("client_metric_variants_daily").where("day", "<", keepFrom).executeTakeFirst();
        return Number(counts.numDeletedRows) + Number(variants.numDeletedRows);
      });
      return { skipped: false, hourlyRowsRolledUp, dailyRowsDeleted };
    } finally {
      await sql`select pg_advisory_unlock(${METRICS_ROLL_UP_LOCK_KEY})`.execute(conn);
    }
  });
}

/**
 * Moves the hours of the oldest day that has any before `rollUpBefore` into its daily rows; null
 * when there is none. The counts table first and the variants after, each locking its rows in key
 * order, as a flush does, so that a flush of late reports for those hours queues instead of deadlocking.
 */
async function rollUpOldestDay(trx: Transaction<Database>, rollUpBefore: Date): Promise<number | null> {
  const oldest = await trx
    .selectFrom("client_metrics")
    .select((eb) => eb.fn.min("hour").as("hour"))
    .where("hour", "<", rollUpBefore)
    .executeTakeFirst();
  const oldestVariant = await trx
    .selectFrom("client_metric_variants")
    .select((eb) => eb.fn.min("hour").as("hour"))
    .where("hour", "<", rollUpBefore)
    .executeTakeFirst();
  const first = [oldest?.hour, oldestVariant?.hour].filter((h): h is Date => h != null).sort((a, b) => a.getTime() - b.getTime())[0];
  if (!first) return null;
  const day = startOfUtcDay(first);
  const end = new Date(Math.min(day.getTime() + DAY_MS, rollUpBefore.getTime()));

  const counts = await trx
    .with("moved", (db) =>
      db
        .deleteFrom("client_metrics")
        .where((eb) =>
          eb(
            eb.refTuple("feature_name", "environment", "app_name", "hour"),
            "in",
            eb
              .selectFrom("client_metrics as l")
              .select(["l.feature_name", "l.environment", "l.app_name", "l.hour"])
              .where("l.hour", ">=", day)
              .where("l.hour", "<", end)
              .orderBy("l.feature_name")
              .orderBy("l.environment")
              .orderBy("l.app_name")
              .orderBy("l.hour")
              .forUpdate()
              .$asTuple("feature_name", "environment", "app_name", "hour"),
          ),
        )
        .returningAll(),
    )
    .with("summed", (db) =>
      db
        .insertInto("client_metrics_daily")
        .columns(["feature_name", "environment", "app_name", "day", "yes", "no"])
        .expression((eb) =>
          eb
            .selectFrom("moved")
            .select((s) => [
              "moved.feature_name",
              "moved.environment",
              "moved.app_name",
              sql<Date>`${day}::timestamptz`.as("day"),
              s.fn.sum<number>("moved.yes").as("yes"),
              s.fn.sum<number>("moved.no").as("no"),
            ])
            .groupBy(["moved.feature_name", "moved.environment", "moved.app_name"])
            .orderBy("moved.feature_name")
            .orderBy("moved.environment")
            .orderBy("moved.app_name"),
        )
        .onConflict((oc) =>
          oc.columns(["feature_name", "environment", "app_name", "day"]).doUpdateSet((eb) => ({
            yes: eb("client_metrics_daily.yes", "+", eb.ref("excluded.yes")),
            no: eb("client_metrics_daily.no", "+", eb.ref("excluded.no")),
          })),
        )
        .returning("day"),
    )
    .selectFrom("moved")
    .select((eb) => eb.fn.countAll<string>().as("rows"))
    .executeTakeFirstOrThrow();

  const variants = await trx
    .with("moved", (db) =>
      db
        .deleteFrom("client_metric_variants")
        .where((eb) =>
          eb(
            eb.refTuple("feature_name", "environment", "app_name", "hour", "variant"),
            "in",
            eb
              .selectFrom("client_metric_variants as l")
              .select(["l.feature_name", "l.environment", "l.app_name", "l.hour", "l.variant"])
              .where("l.hour", ">=", day)
              .where("l.hour", "<", end)
              .orderBy("l.feature_name")
              .orderBy("l.environment")
              .orderBy("l.app_name")
              .orderBy("l.hour")
              .orderBy("l.variant")
              .forUpdate()
              .$asTuple("feature_name", "environment", "app_name", "hour", "variant"),
          ),
        )
        .returningAll(),
    )
    .with("summed", (db) =>
      db
        .insertInto("client_metric_variants_daily")
        .columns(["feature_name", "environment", "app_name", "day", "variant", "count"])
        .expression((eb) =>
          eb
            .selectFrom("moved")
            .select((s) => [
              "moved.feature_name",
              "moved.environment",
              "moved.app_name",
              sql<Date>`${day}::timestamptz`.as("day"),
              "moved.variant",
              s.fn.sum<number>("moved.count").as("count"),
            ])
            .groupBy(["moved.feature_name", "moved.environment", "moved.app_name", "moved.variant"])
            .orderBy("moved.feature_name")
            .orderBy("moved.environment")
            .orderBy("moved.app_name")
            .orderBy("moved.variant"),
        )
        .onConflict((oc) =>
          oc
            .columns(["feature_name", "environment", "app_name", "day", "variant"])
            .doUpdateSet((eb) => ({ count: eb("client_metric_variants_daily.count", "+", eb.ref("excluded.count")) })),
        )
        .returning("day"),
    )
    .selectFrom("moved")
    .select((eb) => eb.fn.countAll<string>().as("rows"))
    .executeTakeFirstOrThrow();

  return Number(counts.rows) + Number(variants.rows);
}
