import type { Database } from "@vexil/db";
import type { Transaction } from "kysely";
import { ConflictError, NotFoundError } from "../errors/domain-error.ts";

/**
 * Locks a user row for a change made by hand, and refuses it when an identity provider manages the
 * user over SCIM (docs/scim.md#managed-by-scim): the provider would undo it, or a leaver would keep
 * a way in. Returns the user's name for the change's event.
 */
export async function lockHandManagedUser(trx: Transaction<Database>, userId: number): Promise<{ username: string | null }> {
  const row = await trx.selectFrom("users").select(["username", "scim_id"]).where("id", "=", userId).forUpdate().executeTakeFirst();
  if (!row) throw new NotFoundError(`There is no user with id ${userId}.`);
  if (row.scim_id !== null) {
    throw new ConflictError(
      `The user ${userId} is managed by SCIM provisioning: change or remove it in the identity provider, which Vexil follows.`,
    );
  }
  return { username: row.username };
}
