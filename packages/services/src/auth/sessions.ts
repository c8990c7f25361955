import { randomBytes } from "node:crypto";
import { type CredentialLookup, type Database, userTag } from "@vexil/db";
import { type Kysely, sql, type Transaction } from "kysely";
import type { RootRoleId } from "./permissions.ts";
import type { Principal } from "./principal.ts";
import { projectRolesOfUser } from "../project-roles/project-roles-of-user.ts";

export interface SessionPolicy {
  /** A session ends this long after login, however active (Unleash: 48 h). */
  absoluteMs: number;
  /** A session unused for this long ends. */
  idleMs: number;
  /** A new login beyond this many ends the user's oldest session (Unleash: 5). */
  maxPerUser: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { absoluteMs: 48 * 3600_000, idleMs: 24 * 3600_000, maxPerUser: 5 };

// Writing last_seen_at on every request would turn every read into a write.
const TOUCH_AFTER_MS = 60_000;

/** Starts a session; call it in the login's transaction. Returns the new session's id. */
export async function createSession(
  trx: Transaction<Database>,
  userId: number,
  client: { ip: string; userAgent: string | null; passwordChangeRequired?: boolean },
  policy: SessionPolicy,
): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await trx
    .insertInto("sessions")
    .values({
      id,
      user_id: userId,
      last_seen_at: sql<Date>`now()`,
      expires_at: sql<Date>`now() + make_interval(secs => ${policy.absoluteMs / 1000})`,
      user_agent: client.userAgent?.slice(0, 512) ?? null,
      ip: client.ip,
      password_change_required: client.passwordChangeRequired ?? false,
    })
    .execute();
  await trx
    .deleteFrom("sessions")
    .where("user_id", "=", userId)
    .where(
      "id",
      "not in",
      trx.selectFrom("sessions").select("id").where("user_id", "=", userId).orderBy("seq", "desc").limit(policy.maxPerUser),
    )
    .execute();
  return id;
}

/**
 * The user behind a live session (null for an unknown, expired or idle one), with what a cache
 * needs: what the answer depends on and when the session ends.
 */
export async function lookUpSessionPrincipal(
  db: Kysely<Database>,
  sessionId: string,
  policy: SessionPolicy,
): Promise<CredentialLookup<Principal> | null> {
  const idleSeconds = policy.idleMs / 1000;
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.id as sessionId",
      "users.id as userId",
      "users.username",
      "users.email",
      "users.root_role as rootRole",
      "sessions.password_change_required as passwordChangeRequired",
      sql<boolean>`sessions.last_seen_at < now() - make_interval(secs => ${TOUCH_AFTER_MS / 1000})`.as("stale"),
      sql<number>`(extract(epoch from least(sessions.expires_at, sessions.last_seen_at + make_interval(secs => ${idleSeconds})) - now()) * 1000)::float8`.as(
        "expiresInMs",
      ),
    ])
    .where("sessions.id", "=", sessionId)
    // A deactivated user's sessions are deleted with the deactivation; this holds against any left behind.
    .where("users.active", "=", true)
    .where("sessions.expires_at", ">", sql<Date>`now()`)
    .where("sessions.last_seen_at", ">", sql<Date>`now() - make_interval(secs => ${idleSeconds})`)
    .executeTakeFirst();
  if (!row) return null;
  if (row.stale) {
    await db.updateTable("sessions").set({ last_seen_at: sql<Date>`now()` }).where("id", "=", sessionId).execute();
  }
  return {
    value: {
      kind: "user",
      userId: row.userId,
      username: row.username ?? row.email ?? `user-${row.userId}`,
      rootRole: row.rootRole as RootRoleId,
      via: "session",
      sessionId: row.sessionId,
      ...(row.passwordChangeRequired ? { passwordChangeRequired: true as const } : {}),
      projectRoles: await projectRolesOfUser(db, row.userId),
    },
    tags: [userTag(row.userId)],
    expiresInMs: row.expiresInMs,
  };
}

export async function endSession(db: Kysely<Database>, sessionId: string): Promise<boolean> {
  const result = await db.deleteFrom("sessions").where("id", "=", sessionId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
