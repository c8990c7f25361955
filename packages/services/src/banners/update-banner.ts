import type { Database } from "@vexil/db";
import type { Kysely, Updateable } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { appendEvent } from "../events/append-event.ts";
import { assertValidBannerFields, type Banner, type BannerFields, bannerFromRow } from "./banner.ts";
import { lockBanner } from "./lock-banner.ts";
import { inTransaction } from "../transactions/in-transaction.ts";

/** What to change: a field left undefined keeps its value, null clears a nullable one. */
export type BannerChanges = Partial<BannerFields>;

/** Changes a banner and records `banner-updated` with the banner before and after. */
export async function updateBanner(db: Kysely<Database>, by: Principal | null, id: number, changes: BannerChanges): Promise<Banner> {
  return inTransaction(db, async (trx) => {
    assertValidBannerFields(changes);
    const before = await lockBanner(trx, id);
    const values: Updateable<Database["banners"]> = {};
    if (changes.message !== undefined) values.message = changes.message;
    if (changes.enabled !== undefined) values.enabled = changes.enabled;
    if (changes.variant !== undefined) values.variant = changes.variant;
    if (changes.sticky !== undefined) values.sticky = changes.sticky;
    if (changes.icon !== undefined) values.icon = changes.icon;
    if (changes.link !== undefined) values.link = changes.link;
    if (changes.linkText !== undefined) values.link_text = changes.linkText;
    if (changes.dialogTitle !== undefined) values.dialog_title = changes.dialogTitle;
    if (changes.dialog !== undefined) values.dialog = changes.dialog;

    // An update that changes nothing is still a write the caller asked for, so it is still recorded.
    const after =
      Object.keys(values).length === 0
        ? before
        : bannerFromRow(await trx.updateTable("banners").set(values).where("id", "=", id).returningAll().executeTakeFirstOrThrow());
    await appendEvent(trx, by, { type: "banner-updated", data: after, preData: before });
    return after;
  });
}
