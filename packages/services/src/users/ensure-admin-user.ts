import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { PasswordHasher } from "../auth/password-hasher.ts";
import { RootRole } from "../auth/permissions.ts";
import { NameExistsError } from "../errors/domain-error.ts";
import { createUser } from "./create-user.ts";

/**
 * On an empty database, creates `admin` so that a newcomer can log in at once. Returns true when
 * it did. Two instances starting together both try; the unique username lets one win.
 */
export async function ensureAdminUser(db: Kysely<Database>, hasher: PasswordHasher, password: string): Promise<boolean> {
  const any = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (any) return false;
  try {
    await createUser(db, hasher, null, { username: "admin", name: "Admin", password, rootRole: RootRole.Admin });
    return true;
  } catch (error) {
    if (error instanceof NameExistsError) return false;
    throw error;
  }
}
