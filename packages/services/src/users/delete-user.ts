import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { toUser, type User, userEventData } from "./user.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { lockHandManagedUser } from "./lock-hand-managed-user.ts";

/** Deletes a user made by hand; its sessions and personal tokens go with it (foreign keys cascade). */
export async function deleteUser(db: Kysely<Database>, by: Principal | null, userId: number): Promise<User> {
  return inTransaction(db, async (trx) => {
    await lockHandManagedUser(trx, userId);
    const row = await trx.deleteFrom("users").where("id", "=", userId).returningAll().executeTakeFirst();
    if (!row) throw new NotFoundError(`There is no user with id ${userId}.`);
    const user = toUser(row);
    await appendEvent(trx, by, { type: "user-deleted", preData: userEventData(user), data: null });
    return user;
  });
}
