import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { DEFAULT_ADMIN_PASSWORD } from "../auth/login.ts";
import type { PasswordHasher } from "../auth/password-hasher.ts";
import { changePassword } from "./change-password.ts";

async function adminWithPassword(db: Kysely<Database>, hasher: PasswordHasher) {
  const admin = await db.selectFrom("users").select(["id", "password_hash"]).where("username", "=", "admin").executeTakeFirst();
  if (!admin) return { admin, password: "missing" as const };
  const isDefault = !!admin.password_hash && (await hasher.verify(DEFAULT_ADMIN_PASSWORD, admin.password_hash));
  return { admin, password: isDefault ? ("default" as const) : ("own" as const) };
}

/** Whether `admin` still has the default password, whose first login may only change it (docs/auth.md#passwords). */
export async function adminPassword(db: Kysely<Database>, hasher: PasswordHasher): Promise<"default" | "own" | "missing"> {
  return (await adminWithPassword(db, hasher)).password;
}

/**
 * Gives `admin` `password` while it still has the default one, which its first login would have
 * to change anyway: `vexil demo` after a first `serve`. An admin with a password of its own keeps it.
 */
export async function replaceDefaultAdminPassword(
  db: Kysely<Database>,
  hasher: PasswordHasher,
  password: string,
): Promise<"replaced" | "kept" | "missing"> {
  const { admin, password: current } = await adminWithPassword(db, hasher);
  if (!admin) return "missing";
  if (current !== "default") return "kept";
  await changePassword(db, hasher, null, admin.id, password);
  return "replaced";
}
