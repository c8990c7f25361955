import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { appendEvent } from "../events/append-event.ts";
import { assertValidBannerFields, type Banner, type BannerFields, bannerFromRow } from "./banner.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

// Advisory lock keys share one space per database; 7_401_337 and 7_401_338 guard migrations.
const BANNER_CREATE_LOCK_KEY = 7_401_340;

/**
 * Stores a new banner with its `banner-created` event. Creates queue on a transaction-level lock,
 * so each one takes its id and its time after the previous one committed: ids and creation times
 * then sort the same way, however many banners are created at once. The time is kept to whole
 * milliseconds (what the API shows) and at least 1 ms after the latest banner's, so that two
 * banners never show the same time and a clock that steps back cannot reorder them.
 */
export async function createBanner(db: Kysely<Database>, by: Principal | null, fields: BannerFields): Promise<Banner> {
  return inTransaction(db, async (trx) => {
    assertValidBannerFields(fields);
    await sql`select pg_advisory_xact_lock(${BANNER_CREATE_LOCK_KEY})`.execute(trx);
    const row = await trx
      .insertInto("banners")
      .values({
        message: fields.message,
        enabled: fields.enabled ?? true,
        variant: fields.variant ?? "info",
        sticky: fields.sticky ?? false,
        icon: fields.icon ?? null,
        link: fields.link ?? null,
        link_text: fields.linkText ?? null,
        dialog_title: fields.dialogTitle ?? null,
        dialog: fields.dialog ?? null,
        created_at: sql<Date>`greatest(
          date_trunc('milliseconds', clock_timestamp()),
          (select max(created_at) + interval '1 millisecond' from banners)
        )`,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const banner = bannerFromRow(row);
    await appendEvent(trx, by, { type: "banner-created", data: banner });
    return banner;
  });
}
