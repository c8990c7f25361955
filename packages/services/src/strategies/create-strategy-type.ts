import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NameExistsError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { appendEvent } from "../events/append-event.ts";
import { BUILT_IN_STRATEGY_NAMES, newStrategyTypeSchema, type StrategyType, strategyTypeFromRow } from "./strategy-type.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

/** Defines a custom strategy type, which features may then use and SDKs implement. */
export async function createStrategyType(db: Kysely<Database>, by: Principal | null, input: unknown): Promise<StrategyType> {
  return inTransaction(db, async (trx) => {
    const { name, description, parameters } = parseInput(newStrategyTypeSchema, input, "", "The strategy");
    if (BUILT_IN_STRATEGY_NAMES.has(name)) throw new NameExistsError(`"${name}" is a built-in strategy.`);
    const row = await trx
      .insertInto("strategy_types")
      .values({ name, description: description ?? null, parameters: JSON.stringify(parameters) })
      .onConflict((oc) => oc.column("name").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NameExistsError(`A strategy named "${name}" already exists.`);
    const created = strategyTypeFromRow(row);
    await appendEvent(trx, by, { type: "strategy-created", data: created });
    return created;
  });
}
