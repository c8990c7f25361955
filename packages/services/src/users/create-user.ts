import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { PasswordHasher } from "../auth/password-hasher.ts";
import type { RootRoleId } from "../auth/permissions.ts";
import type { Principal } from "../auth/principal.ts";
import { NameExistsError, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { checkPasswordPolicy } from "./password-policy.ts";
import { isUniqueViolation, USERNAME_INDEXES } from "./unique-violation.ts";
import { toUser, type User, userEventData } from "./user.ts";

export interface NewUser {
  username?: string | null | undefined;
  email?: string | null | undefined;
  name?: string | null | undefined;
  password?: string | null | undefined;
  rootRole: RootRoleId;
}

/**
 * Creates a user. The password is hashed before the transaction opens, so that no connection is
 * held during bcrypt.
 */
export async function createUser(db: Kysely<Database>, hasher: PasswordHasher, by: Principal | null, input: NewUser): Promise<User> {
  if (!input.username && !input.email) {
    throw new ValidationError("A user needs a username or an e-mail.", [{ path: "username", message: "username or email required" }]);
  }
  if (input.password) checkPasswordPolicy(input.password);
  const passwordHash = input.password ? await hasher.hash(input.password) : null;

  try {
    return await inTransaction(db, async (trx) => {
      const row = await trx
        .insertInto("users")
        .values({
          username: input.username ?? null,
          email: input.email ?? null,
          name: input.name ?? null,
          password_hash: passwordHash,
          root_role: input.rootRole,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const user = toUser(row);
      await appendEvent(trx, by, { type: "user-created", data: userEventData(user) });
      return user;
    });
  } catch (error) {
    if (USERNAME_INDEXES.some((index) => isUniqueViolation(error, index)))
      throw new NameExistsError(`The username "${input.username}" is taken.`);
    if (isUniqueViolation(error, "users_email_lower_idx")) throw new NameExistsError(`The e-mail "${input.email}" is taken.`);
    throw error;
  }
}
