import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { BUILT_IN_STRATEGIES, type StrategyType, strategyTypeFromRow } from "./strategy-type.ts";

/** Built-in strategy types first, then the custom ones by name. */
export async function listStrategyTypes(db: Kysely<Database>): Promise<StrategyType[]> {
  const rows = await db.selectFrom("strategy_types").selectAll().orderBy("name").execute();
  return [...BUILT_IN_STRATEGIES, ...rows.map(strategyTypeFromRow)];
}
