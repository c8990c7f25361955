import type { Database } from "@vexil/db";
import { sql, type Transaction } from "kysely";

let savepoints = 0;

/**
 * Runs a command's steps inside the caller's transaction behind a savepoint, so that a refusal
 * undoes only these steps and the transaction goes on: a script that makes many commands one
 * write (the Unleash migration) can leave out what a rule refuses instead of all of it.
 */
export async function inSavepoint<T>(trx: Transaction<Database>, steps: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const name = `vexil_step_${++savepoints}`;
  await sql.raw(`savepoint ${name}`).execute(trx);
  try {
    const result = await steps(trx);
    await sql.raw(`release savepoint ${name}`).execute(trx);
    return result;
  } catch (error) {
    await sql.raw(`rollback to savepoint ${name}`).execute(trx);
    throw error;
  }
}
