import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal, RootRoleId } from "../../src/index.ts";

/**
 * Users as rows of their own (change requests reference their authors and reviewers), each
 * returned as the principal of a session: `const user = userPrincipals(db, "cr"); await user(RootRole.Editor)`.
 */
export function userPrincipals(db: Kysely<Database>, prefix: string): (rootRole: RootRoleId) => Promise<Principal> {
  let count = 0;
  return async (rootRole) => {
    const username = `${prefix}-user-${++count}`;
    const row = await db
      .insertInto("users")
      .values({ username, email: null, name: null, password_hash: null, root_role: rootRole, seen_at: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { kind: "user", userId: row.id, username, rootRole, via: "session" };
  };
}
