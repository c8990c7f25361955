import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { type Banner, bannerFromRow } from "./banner.ts";

/** Every banner, newest first: ids grow with creation time, so the id order is the age order. */
export async function listBanners(db: Kysely<Database>): Promise<Banner[]> {
  const rows = await db.selectFrom("banners").selectAll().orderBy("id", "desc").execute();
  return rows.map(bannerFromRow);
}
