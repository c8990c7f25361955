import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { appendEvent } from "../events/append-event.ts";
import type { Banner } from "./banner.ts";
import { lockBanner } from "./lock-banner.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

/**
 * Deletes a banner and records `banner-deleted`: nothing after (`data` null), the deleted banner
 * before (`preData`). Returns the deleted banner.
 */
export async function deleteBanner(db: Kysely<Database>, by: Principal | null, id: number): Promise<Banner> {
  return inTransaction(db, async (trx) => {
    const before = await lockBanner(trx, id);
    await trx.deleteFrom("banners").where("id", "=", id).execute();
    await appendEvent(trx, by, { type: "banner-deleted", data: null, preData: before });
    return before;
  });
}
