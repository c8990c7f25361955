import { analyzeTables, type Database } from "@vexil/db";
import { type Kysely, sql, type Transaction } from "kysely";
import { appendEvents } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

// Any constant that no other part of Vexil uses as an advisory lock key.
const POTENTIALLY_STALE_LOCK_KEY = 7_401_341;
/** Flags changed in one pass from which the statistics of the tables it wrote are gathered after it (docs/search.md#statistics-after-bulk-writes). */
const MANY_FLAGS = 100;

/** Flags whose potentially-stale mark changed in one pass. */
export interface PotentiallyStaleChanges {
  /** Now potentially stale: each got a `feature-potentially-stale-on` event. */
  on: string[];
  /** No longer (their type's lifetime was raised or removed): no event, as in Unleash. */
  off: string[];
  /**
   * Why the statistics of the flags and their events could not be gathered after a pass that
   * changed many flags (the pass is committed; they then wait for autovacuum's ANALYZE).
   */
  statisticsFailed?: string;
}

/**
 * Brings `potentially_stale` up to date, as Unleash's housekeeping does: a flag that is neither
 * stale nor archived is potentially stale once it is older than its type's lifetime (never for a
 * type without one). Stale and archived flags keep their mark. Passes queue on an advisory lock and
 * the UPDATE changes only rows still out of date, so concurrent passes (several instances, a
 * lifetime changed meanwhile) record one event per flag.
 */
export async function reassessPotentiallyStale(
  trx: Transaction<Database>,
  scope: { type?: string } = {},
): Promise<PotentiallyStaleChanges> {
  await sql`select pg_advisory_xact_lock(${POTENTIALLY_STALE_LOCK_KEY})`.execute(trx);
  const due = sql<boolean>`coalesce(now() > f.created_at + (select t.lifetime_days from feature_types t where t.id = f.type) * interval '1 day', false)`;
  const outOfDate = trx
    .selectFrom("features as f")
    .select("f.name")
    .where("f.stale", "=", false)
    .where("f.archived_at", "is", null)
    .where(sql<boolean>`f.potentially_stale <> ${due}`)
    .$if(scope.type !== undefined, (q) => q.where("f.type", "=", scope.type as string));
  // Looked for first: an UPDATE of no rows would still notify every SDK read model (a statement trigger).
  if (!(await outOfDate.limit(1).executeTakeFirst())) return { on: [], off: [] };
  const changed = await trx
    .updateTable("features as f")
    .set({ potentially_stale: due })
    .where("f.stale", "=", false)
    .where("f.archived_at", "is", null)
    .where(sql<boolean>`f.potentially_stale <> ${due}`)
    .$if(scope.type !== undefined, (q) => q.where("f.type", "=", scope.type as string))
    .returning(["f.name", "f.project_id", "f.potentially_stale"])
    .execute();
  changed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const on = changed.filter((f) => f.potentially_stale);
  // In statements of many events: one per flag cost a first pass over 55,000 flags 55,000 round trips, their rows locked meanwhile.
  await appendEvents(
    trx,
    null,
    on.map((flag) => ({ type: "feature-potentially-stale-on", project: flag.project_id, featureName: flag.name, data: null })),
  );
  return { on: on.map((f) => f.name), off: changed.filter((f) => !f.potentially_stale).map((f) => f.name) };
}

/**
 * Housekeeping's pass over every flag, in a transaction of its own; after a pass that changed
 * many flags, the statistics of the flags and their events are gathered, so that no connection
 * keeps plans made while the events were few (docs/search.md#statistics-after-bulk-writes).
 */
export async function markPotentiallyStaleFlags(db: Kysely<Database>): Promise<PotentiallyStaleChanges> {
  const changes: PotentiallyStaleChanges = await inTransaction(db, (trx) => reassessPotentiallyStale(trx));
  if (changes.on.length + changes.off.length < MANY_FLAGS) return changes;
  // After the committed pass, which it does not undo: a failure is told, and logged.
  const statisticsFailed = await failureOf(() => analyzeTables(db, ["features", "events"]));
  return { ...changes, ...(statisticsFailed ? { statisticsFailed } : {}) };
}

/** The message of the error `work` ends in, if it does. */
async function failureOf(work: () => Promise<void>): Promise<string | undefined> {
  try {
    await work();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
