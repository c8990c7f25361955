import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { PasswordHasher } from "../auth/password-hasher.ts";
import type { Principal } from "../auth/principal.ts";
import { NoAccessError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { checkPasswordPolicy } from "./password-policy.ts";
import { lockHandManagedUser } from "./lock-hand-managed-user.ts";

/** Sets a new password and ends every session of that user (docs/auth.md#sessions). */
export async function changePassword(
  db: Kysely<Database>,
  hasher: PasswordHasher,
  by: Principal | null,
  userId: number,
  password: string,
): Promise<void> {
  checkPasswordPolicy(password);
  const hash = await hasher.hash(password);
  await inTransaction(db, async (trx) => {
    // A provisioned user signs in through the identity provider; a password would be a way around it.
    const updated = await lockHandManagedUser(trx, userId);
    await trx.updateTable("users").set({ password_hash: hash, login_attempts: 0 }).where("id", "=", userId).execute();
    const ended = await trx.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst();
    await appendEvent(trx, by, {
      type: "user-password-changed",
      data: { id: userId, username: updated.username, sessionsEnded: Number(ended.numDeletedRows) },
    });
  });
}

/** Sets the caller's own password; an API token has none to change. */
export async function changeOwnPassword(db: Kysely<Database>, hasher: PasswordHasher, by: Principal, password: string): Promise<void> {
  if (by.kind !== "user") throw new NoAccessError("Only a user has a password to change.");
  await changePassword(db, hasher, by, by.userId, password);
}
