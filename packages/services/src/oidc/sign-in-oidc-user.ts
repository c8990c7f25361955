import type { Database } from "@vexil/db";
import type { Kysely, Transaction } from "kysely";
import type { RootRoleId } from "../auth/permissions.ts";
import type { Principal } from "../auth/principal.ts";
import { createSession, type SessionPolicy } from "../auth/sessions.ts";
import { ConflictError, NoAccessError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { isUniqueViolation } from "../users/unique-violation.ts";
import { toUser, type User, type UserRow, userEventData } from "../users/user.ts";
import type { OidcIdentity } from "./oidc-identity.ts";
import type { OidcSettings } from "./oidc-settings.ts";
import { syncOidcGroups } from "./sync-oidc-groups.ts";

const asPrincipal = (row: UserRow): Extract<Principal, { kind: "user" }> => ({
  kind: "user",
  userId: row.id,
  username: row.username ?? row.email ?? `user-${row.id}`,
  rootRole: row.root_role as RootRoleId,
  via: "session",
});

/** The user this identity already is: by issuer and subject, else (once) by a verified e-mail not linked to anyone yet. */
async function knownUser(trx: Transaction<Database>, identity: OidcIdentity): Promise<UserRow | undefined> {
  const linked = await trx
    .selectFrom("users")
    .selectAll()
    .where("oidc_issuer", "=", identity.issuer)
    .where("oidc_subject", "=", identity.subject)
    .forUpdate()
    .executeTakeFirst();
  if (linked || !identity.email || !identity.emailVerified) return linked;
  const byEmail = await trx
    .selectFrom("users")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", (identity.email as string).toLowerCase()))
    .where("oidc_subject", "is", null)
    .forUpdate()
    .executeTakeFirst();
  if (!byEmail) return undefined;
  return trx
    .updateTable("users")
    .set({ oidc_issuer: identity.issuer, oidc_subject: identity.subject })
    .where("id", "=", byEmail.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A new user for an identity Vexil does not know: the names it can have without taking anyone else's. */
async function createdUser(trx: Transaction<Database>, identity: OidcIdentity, rootRole: RootRoleId): Promise<UserRow> {
  const emailTaken =
    identity.email !== null &&
    !!(await trx
      .selectFrom("users")
      .select("id")
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", (identity.email as string).toLowerCase()))
      .executeTakeFirst());
  const usernameTaken =
    identity.preferredUsername !== null &&
    !!(await trx
      .selectFrom("users")
      .select("id")
      .where((eb) => eb(eb.fn("lower", ["username"]), "=", (identity.preferredUsername as string).toLowerCase()))
      .executeTakeFirst());
  const email = emailTaken ? null : identity.email;
  let username = usernameTaken ? null : identity.preferredUsername;
  // A user needs a username or an e-mail; the subject is unique at its provider.
  if (!username && !email) username = `sso-${identity.subject}`.slice(0, 100);
  return trx
    .insertInto("users")
    .values({
      username,
      email,
      name: identity.name,
      password_hash: null,
      root_role: rootRole,
      oidc_issuer: identity.issuer,
      oidc_subject: identity.subject,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Signs in the person an ID token names (docs/oidc.md#users): their linked user, or the unlinked
 * one with their verified e-mail, or a new one when unknown users are created (else a 403 and
 * nothing stored); a deactivated user is a 403 and nothing stored. A mapped role replaces the stored
 * one at each sign-in, and the groups claim sets their groups (docs/oidc.md#groups): the provider decides.
 */
export async function signInOidcUser(
  db: Kysely<Database>,
  identity: OidcIdentity,
  settings: OidcSettings,
  sessions: SessionPolicy,
  client: { ip: string; userAgent: string | null },
): Promise<{ user: User; sessionId: string }> {
  try {
    return await inTransaction(db, async (trx) => {
      let row = await knownUser(trx, identity);
      // A leaver the directory deactivated (docs/scim.md#leavers) is refused here too, before anything is stored.
      if (row && !row.active) {
        throw new NoAccessError(
          "Your Vexil account is deactivated: your organisation's directory turned it off. Ask an administrator if this is a mistake.",
        );
      }
      if (!row) {
        if (settings.autoCreateRole === null) {
          const who = identity.email ?? identity.preferredUsername ?? identity.subject;
          throw new NoAccessError(`Vexil has no account for ${who}, and it creates none at sign-in: ask an administrator to add you.`);
        }
        row = await createdUser(trx, identity, identity.mappedRole ?? settings.autoCreateRole);
        await appendEvent(trx, asPrincipal(row), { type: "user-created", data: userEventData(toUser(row)) });
      } else if (identity.mappedRole !== null && identity.mappedRole !== row.root_role) {
        const before = toUser(row);
        row = await trx
          .updateTable("users")
          .set({ root_role: identity.mappedRole })
          .where("id", "=", row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await appendEvent(trx, asPrincipal(row), {
          type: "user-updated",
          preData: userEventData(before),
          data: userEventData(toUser(row)),
        });
      }
      if (identity.groups !== null) await syncOidcGroups(trx, asPrincipal(row), identity.groups);
      const previousSeenAt = row.seen_at;
      const updated = await trx
        .updateTable("users")
        .set({ login_attempts: 0, seen_at: new Date() })
        .where("id", "=", row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const sessionId = await createSession(trx, updated.id, client, sessions);
      const user = { ...toUser(updated), seenAt: previousSeenAt };
      await appendEvent(trx, asPrincipal(updated), {
        type: "user-logged-in",
        data: { id: user.id, username: user.username, ip: client.ip, authProvider: "oidc" },
      });
      return { user, sessionId };
    });
  } catch (error) {
    // Two first sign-ins of one person at once, or a name taken between the look-up and the insert.
    if (isUniqueViolation(error)) throw new ConflictError("Another sign-in changed this account at the same moment; sign in again.");
    throw error;
  }
}
