import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import type { Banner } from "./banner.ts";
import { updateBanner } from "./update-banner.ts";

/** Shows or hides a banner (`/on`, `/off`); recorded as `banner-updated`, like any other change. */
export async function setBannerEnabled(db: Kysely<Database>, by: Principal | null, id: number, enabled: boolean): Promise<Banner> {
  return updateBanner(db, by, id, { enabled });
}
