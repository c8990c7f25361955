import type { Database } from "@vexil/db";
import { createTestDb, type TestDb } from "@vexil/db/testing";
import type { Transaction } from "kysely";

/** A database of the test file's own, with `write`, which runs several writes in one transaction (commands join it). */
export async function openTestDb(): Promise<TestDb & { write: <T>(fn: (trx: Transaction<Database>) => Promise<T>) => Promise<T> }> {
  const testDb = await createTestDb();
  return Object.assign(testDb, { write: <T>(fn: (trx: Transaction<Database>) => Promise<T>) => testDb.kysely.transaction().execute(fn) });
}
