import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NameExistsError, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { assertUrlSafeName } from "../features/url-safe-name.ts";
import { type Environment, environmentFromRow } from "./list-environments.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

export interface NewEnvironment {
  name: string;
  /** Free text as in Unleash; `development` and `production` are the usual ones. */
  type: string;
  sortOrder?: number | undefined;
}

/** Creates an environment; it is enabled in no project until a project asks for it. */
export async function createEnvironment(db: Kysely<Database>, by: Principal | null, input: NewEnvironment): Promise<Environment> {
  return inTransaction(db, async (trx) => {
    assertUrlSafeName(input.name, "name");
    if (input.type.trim() === "") throw new ValidationError('"type" must not be empty.', [{ path: "type", message: "must not be empty" }]);

    const row = await trx
      .insertInto("environments")
      .values({ name: input.name, type: input.type, ...(input.sortOrder === undefined ? {} : { sort_order: input.sortOrder }) })
      .onConflict((oc) => oc.column("name").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NameExistsError(`An environment named "${input.name}" already exists.`);

    const environment = environmentFromRow(row);
    await appendEvent(trx, by, { type: "environment-created", environment: environment.name, data: environment });
    return environment;
  });
}
