import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { PasswordHasher } from "../auth/password-hasher.ts";
import type { Principal } from "../auth/principal.ts";
import { NoAccessError, ValidationError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { checkPasswordPolicy } from "./password-policy.ts";
import { lockHandManagedUser } from "./lock-hand-managed-user.ts";

/**
 * Sets a new password and ends every session of that user but `keepSessionId`, and every personal
 * access token of theirs (docs/auth.md#sessions): whoever held the old password may have made them.
 */
export async function changePassword(
  db: Kysely<Database>,
  hasher: PasswordHasher,
  by: Principal | null,
  userId: number,
  password: string,
): Promise<void> {
  // Else a personal access token of an Admin would change its own user's password without the current one.
  if (by?.kind === "user" && by.userId === userId) {
    throw new NoAccessError("Change your own password with POST /api/admin/user/change-password, giving the current one.");
  }
  await storePassword(db, hasher, by, userId, password);
}

async function storePassword(
  db: Kysely<Database>,
  hasher: PasswordHasher,
  by: Principal | null,
  userId: number,
  password: string,
  keepSessionId?: string,
): Promise<void> {
  checkPasswordPolicy(password);
  const hash = await hasher.hash(password);
  await inTransaction(db, async (trx) => {
    // A provisioned user signs in through the identity provider; a password would be a way around it.
    const updated = await lockHandManagedUser(trx, userId);
    await trx.updateTable("users").set({ password_hash: hash, login_attempts: 0 }).where("id", "=", userId).execute();
    let sessions = trx.deleteFrom("sessions").where("user_id", "=", userId);
    if (keepSessionId) sessions = sessions.where("id", "!=", keepSessionId);
    const ended = await sessions.executeTakeFirst();
    if (keepSessionId) await trx.updateTable("sessions").set({ password_change_required: false }).where("id", "=", keepSessionId).execute();
    const revoked = await trx.deleteFrom("api_tokens").where("user_id", "=", userId).where("type", "=", "personal").executeTakeFirst();
    await appendEvent(trx, by, {
      type: "user-password-changed",
      data: {
        id: userId,
        username: updated.username,
        sessionsEnded: Number(ended.numDeletedRows),
        personalTokensRevoked: Number(revoked.numDeletedRows),
      },
    });
  });
}

/**
 * Sets the caller's own password, from a session and with the current password, as Unleash asks
 * for it (`oldPassword`); the caller's session stays, their other sessions and tokens end.
 */
export async function changeOwnPassword(
  db: Kysely<Database>,
  hasher: PasswordHasher,
  by: Principal,
  change: { password: string; oldPassword: string; confirmPassword?: string | undefined },
): Promise<void> {
  if (by.kind !== "user") throw new NoAccessError("Only a user has a password to change.");
  if (by.via !== "session") throw new NoAccessError("Log in to change your password: a personal access token cannot change it.");
  if (change.confirmPassword !== undefined && change.confirmPassword !== change.password) {
    throw new ValidationError("The new password and its confirmation differ.", [
      { path: "confirmPassword", message: "differs from password" },
    ]);
  }
  const row = await db.selectFrom("users").select("password_hash").where("id", "=", by.userId).executeTakeFirst();
  const current = row?.password_hash ?? null;
  const matches = await hasher.verify(change.oldPassword, current ?? (await hasher.dummyHash()));
  if (!current || !matches) {
    throw new ValidationError("The current password is not right.", [{ path: "oldPassword", message: "not the current password" }]);
  }
  await storePassword(db, hasher, by, by.userId, change.password, by.sessionId);
}
