import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import type { SessionPolicy } from "./sessions.ts";

/**
 * Deletes what can no longer count for anything: sessions past their absolute or idle limit
 * (they are already refused), failed logins older than the longest throttle window (one hour), and
 * single sign-ons that were never finished in time (docs/oidc.md#the-flow).
 * Safe to run from every instance at once: each delete is idempotent.
 */
export async function forgetExpiredAuthRecords(
  db: Kysely<Database>,
  policy: SessionPolicy,
): Promise<{ sessions: number; loginFailures: number; oidcLogins: number }> {
  const sessions = await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([
        eb("expires_at", "<=", sql<Date>`now()`),
        eb("last_seen_at", "<=", sql<Date>`now() - make_interval(secs => ${policy.idleMs / 1000})`),
      ]),
    )
    .executeTakeFirst();
  const loginFailures = await db
    .deleteFrom("login_failures")
    .where("failed_at", "<", sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirst();
  const oidcLogins = await db.deleteFrom("oidc_logins").where("expires_at", "<=", sql<Date>`now()`).executeTakeFirst();
  return {
    sessions: Number(sessions.numDeletedRows),
    loginFailures: Number(loginFailures.numDeletedRows),
    oidcLogins: Number(oidcLogins.numDeletedRows),
  };
}
