import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { DisabledError, PasswordMismatch } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { toUser, type User } from "../users/user.ts";
import { admitLoginAttempt, type LoginLimits } from "./login-throttle.ts";
import type { PasswordHasher } from "./password-hasher.ts";
import { createSession, type SessionPolicy } from "./sessions.ts";

export interface LoginAttempt {
  username: string;
  password: string;
  ip: string;
  userAgent: string | null;
}

/** ADMIN_PASSWORD's default, known to everyone who read the README (Unleash's own). */
export const DEFAULT_ADMIN_PASSWORD = "unleash4all";

export interface LoginPolicy {
  sessions: SessionPolicy;
  limits: LoginLimits;
  /** False turns password login off (PASSWORD_LOGIN=false, docs/oidc.md#password-login); on when absent. */
  passwordLogin?: boolean;
}

/**
 * Checks a username (or e-mail) and password and starts a session. A wrong password and an
 * unknown user fail alike, in body and in time: the unknown user is verified against a dummy
 * hash of the same cost.
 */
export async function login(
  db: Kysely<Database>,
  hasher: PasswordHasher,
  policy: LoginPolicy,
  attempt: LoginAttempt,
): Promise<{ user: User; sessionId: string; passwordChangeRequired: boolean }> {
  // Refused before anything is counted or compared: the message is Unleash's.
  if (policy.passwordLogin === false) throw new DisabledError("Logging in with username/password has been disabled.");
  // Counted per spelling-insensitive name so that "Admin" and "admin" share one budget.
  const account = attempt.username.trim().toLowerCase();
  const ticket = await admitLoginAttempt(db, account, attempt.ip, policy.limits);

  // Usernames, as e-mails, are unique whatever their case; a username wins over an e-mail that equals it.
  const row = await db
    .selectFrom("users")
    .selectAll()
    .where((eb) => eb.or([eb(eb.fn("lower", ["username"]), "=", account), eb(eb.fn("lower", ["email"]), "=", account)]))
    .orderBy((eb) =>
      eb
        .case()
        .when(eb.fn("lower", ["username"]), "=", account)
        .then(0)
        .else(1)
        .end(),
    )
    .limit(1)
    .executeTakeFirst();
  const hash = row?.password_hash ?? (await hasher.dummyHash());
  // A deactivated user (docs/scim.md#leavers) fails as a wrong password does, after the same work.
  const matches = (await hasher.verify(attempt.password, hash)) && !!row?.password_hash && row.active;

  if (!row || !matches) {
    await db.transaction().execute(async (trx) => {
      await ticket.failed(trx);
      if (row)
        await trx
          .updateTable("users")
          .set((eb) => ({ login_attempts: eb("login_attempts", "+", 1) }))
          .where("id", "=", row.id)
          .execute();
    });
    throw new PasswordMismatch();
  }

  return db.transaction().execute(async (trx) => {
    await ticket.succeeded(trx);
    const previous = await trx.selectFrom("users").select("seen_at").where("id", "=", row.id).forUpdate().executeTakeFirstOrThrow();
    const updated = await trx
      .updateTable("users")
      .set({ login_attempts: 0, seen_at: new Date() })
      .where("id", "=", row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const passwordChangeRequired = attempt.password === DEFAULT_ADMIN_PASSWORD;
    const sessionId = await createSession(
      trx,
      row.id,
      { ip: attempt.ip, userAgent: attempt.userAgent, passwordChangeRequired },
      policy.sessions,
    );
    const user = { ...toUser(updated), seenAt: previous.seen_at };
    await appendEvent(
      trx,
      { kind: "user", userId: user.id, username: user.username ?? user.email ?? "", rootRole: user.rootRole, via: "session" },
      { type: "user-logged-in", data: { id: user.id, username: user.username, ip: attempt.ip } },
    );
    return { user, sessionId, passwordChangeRequired };
  });
}
