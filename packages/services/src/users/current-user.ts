import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { AuthenticationRequired, NoAccessError } from "../errors/domain-error.ts";
import { toUser, type User } from "./user.ts";

/** The user calling, as the console learns who signed in (after single sign-on, the cookie is all it has). */
export async function currentUser(db: Kysely<Database>, principal: Principal): Promise<User> {
  if (principal.kind !== "user") {
    throw new NoAccessError("An API token is not a user: this answers for a person, signed in or with a personal access token.");
  }
  const row = await db.selectFrom("users").selectAll().where("id", "=", principal.userId).executeTakeFirst();
  // Deleted since the credential was looked up.
  if (!row) throw new AuthenticationRequired();
  return toUser(row);
}
