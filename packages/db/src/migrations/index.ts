import type { Migration } from "kysely";
import * as foundation from "./2026-11-22T10-00-foundation.ts";
import * as identity from "./2026-11-22T11-00-identity.ts";

/**
 * Every migration, by sortable name. A static list rather than a folder scan, so that the
 * server runs the same set whether it is started from source, bundled or installed.
 */
export const migrations: Record<string, Migration> = {
  "2026-11-22T10-00-foundation": foundation,
  "2026-11-22T11-00-identity": identity,
};
