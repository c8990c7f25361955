import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { DEFAULT_ADMIN_PASSWORD } from "../auth/login.ts";
import type { PasswordHasher } from "../auth/password-hasher.ts";
import { changePassword } from "./change-password.ts";

/**
 * Gives `admin` `password` while it still has the default one, whose first login may only change
 * it anyway (docs/auth.md#passwords): `vexil demo` after a first `serve`. An admin with a
 * password of its own keeps it.
 */
export async function replaceDefaultAdminPassword(
  db: Kysely<Database>,
  hasher: PasswordHasher,
  password: string,
): Promise<"replaced" | "kept" | "missing"> {
  const admin = await db.selectFrom("users").select(["id", "password_hash"]).where("username", "=", "admin").executeTakeFirst();
  if (!admin) return "missing";
  if (!admin.password_hash || !(await hasher.verify(DEFAULT_ADMIN_PASSWORD, admin.password_hash))) return "kept";
  await changePassword(db, hasher, null, admin.id, password);
  return "replaced";
}
