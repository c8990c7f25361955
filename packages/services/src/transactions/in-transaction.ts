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
