import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";

/**
 * Runs a command's steps in a transaction of its own, or in the caller's when `db` already is one,
 * so that a script (the demo loader) can make several commands one all-or-nothing write: Kysely
 * does not nest transactions.
 */
export function inTransaction<T>(db: Kysely<Database>, steps: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? steps(db as Transaction<Database>) : db.transaction().execute(steps);
}

// SQLSTATE 40P01 (deadlock_detected) and 40001 (serialization_failure): Postgres rolled the whole
// transaction back, and the same steps run again may well succeed.
const LOST_TO_ANOTHER = new Set(["40P01", "40001"]);
const ATTEMPTS = 3;

function lostToAnotherTransaction(error: unknown): boolean {
  return typeof error === "object" && error !== null && LOST_TO_ANOTHER.has(String((error as { code?: unknown }).code));
}

/**
 * inTransaction for a command whose steps only read and write the database, so that running them
 * again from the start is the same command: when Postgres picks its transaction as a deadlock's
 * victim (or a serialization failure), the steps run again in a fresh transaction, a few times at
 * most. Inside the caller's transaction nothing is retried: only the caller can start it again.
 */
export async function inRetriedTransaction<T>(db: Kysely<Database>, steps: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return steps(db as Transaction<Database>);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(steps);
    } catch (error) {
      if (attempt >= ATTEMPTS || !lostToAnotherTransaction(error)) throw error;
    }
  }
}
