import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { toUser, type User } from "./user.ts";

export async function listUsers(db: Kysely<Database>): Promise<User[]> {
  const rows = await db.selectFrom("users").selectAll().orderBy("id").execute();
  return rows.map(toUser);
}
