import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { inRetriedTransaction } from "../transactions/in-transaction.ts";
import { assertDirectFeatureWriteAllowed, assertDirectWriteAllowed } from "./assert-direct-write-allowed.ts";

/**
 * A direct write to one environment of a feature, as its command makes it: in a transaction of its
 * own, the four-eyes check first (docs/change-requests.md#four-eyes), then the step that an applied
 * change request also calls. A gated command is built with this, so the check cannot be left out.
 * Its steps only read and write the database: a transaction that lost a deadlock runs them again.
 */
export function directEnvironmentWrite<T>(
  db: Kysely<Database>,
  by: Principal | null,
  path: { projectId: string; environment: string },
  step: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return inRetriedTransaction(db, async (trx) => {
    await assertDirectWriteAllowed(trx, by, path);
    return step(trx);
  });
}

/** A direct write to a feature as a whole (its dependencies), gated wherever any environment of its project is. */
export function directFeatureWrite<T>(
  db: Kysely<Database>,
  by: Principal | null,
  projectId: string,
  step: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return inRetriedTransaction(db, async (trx) => {
    await assertDirectFeatureWriteAllowed(trx, by, projectId);
    return step(trx);
  });
}
