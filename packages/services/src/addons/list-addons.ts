import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { type Addon, addonFromRow } from "./addon.ts";

/** Every integration, oldest first. */
export async function listAddons(db: Kysely<Database>): Promise<Addon[]> {
  return (await db.selectFrom("addons").selectAll().orderBy("id").execute()).map(addonFromRow);
}

export async function getAddon(db: Kysely<Database>, id: number): Promise<Addon> {
  const row = await db.selectFrom("addons").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new NotFoundError(`There is no integration with id ${id}.`);
  return addonFromRow(row);
}

/** The integration, locked until the transaction ends, so that concurrent changes queue. */
export async function lockAddon(trx: Transaction<Database>, id: number): Promise<Addon> {
  const row = await trx.selectFrom("addons").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  if (!row) throw new NotFoundError(`There is no integration with id ${id}.`);
  return addonFromRow(row);
}
