import type { Database } from "@vexil/db";
import type { Transaction } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { type Banner, bannerFromRow } from "./banner.ts";

/**
 * Reads a banner and holds its row until the transaction ends, so that the state an event records
 * as `preData` is the one the write replaced.
 */
export async function lockBanner(trx: Transaction<Database>, id: number): Promise<Banner> {
  const row = await trx.selectFrom("banners").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  if (!row) throw new NotFoundError(`There is no banner with id ${id}.`);
  return bannerFromRow(row);
}
