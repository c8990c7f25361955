import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { TooManyRequests } from "../errors/domain-error.ts";

export interface LoginLimits {
  /** Failed attempts one client address may make in a minute. */
  perAddressPerMinute: number;
  /** Consecutive failures of one account from one address before the doubling delay starts. */
  streakBeforeDelay: number;
  /** Longest delay, in seconds. */
  maxDelaySeconds: number;
  /**
   * Failures of one account in an hour, from all addresses, past which an address that has itself
   * failed for it that hour is refused; an address that has not is never refused by this limit.
   */
  perAccountPerHour: number;
}

// ASVS 2.2.1 / 5.0 6.3.1, as docs/auth.md#login-throttle sets them.
export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  perAddressPerMinute: 10,
  streakBeforeDelay: 5,
  maxDelaySeconds: 15 * 60,
  perAccountPerHour: 100,
};

interface Standing {
  address_count: number;
  address_retry: number | null;
  account_count: number;
  /** This address's own failures for the account in the hour, and when the newest leaves it. */
  own_count: number;
  own_retry: number | null;
  streak_retry: number | null;
}

// Every count lives in Postgres, so all instances share them, and time is the database's.
async function standing(db: Kysely<Database>, account: string, ip: string, limits: LoginLimits, upToId?: number): Promise<Standing> {
  const upTo = upToId ?? Number.MAX_SAFE_INTEGER;
  const { rows } = await sql<Standing>`
    with by_address as (
      select failed_at from login_failures
      where ip = ${ip} and failed_at > now() - interval '1 minute' and id <= ${upTo}
    ), by_account as (
      select id, failed_at, ip from login_failures
      where account = ${account} and failed_at > now() - interval '1 hour' and id <= ${upTo}
    ), own as (
      select failed_at from by_account where ip = ${ip} and id < ${upTo}
    )
    select
      (select count(*) from by_address)::int as address_count,
      (select extract(epoch from min(failed_at) + interval '1 minute' - now()) from by_address)::float8 as address_retry,
      (select count(*) from by_account)::int as account_count,
      (select count(*) from own)::int as own_count,
      (select extract(epoch from max(failed_at) + interval '1 hour' - now()) from own)::float8 as own_retry,
      (select extract(epoch from last_failed_at
                 + make_interval(secs => least(power(2, failures - ${limits.streakBeforeDelay}), ${limits.maxDelaySeconds}))
                 - now())
         from login_streaks
        where account = ${account} and ip = ${ip} and failures >= ${limits.streakBeforeDelay})::float8 as streak_retry
  `.execute(db);
  return rows[0] as Standing;
}

function refuse(s: Standing, limits: LoginLimits, reserved: boolean): void {
  // With a reserved row, the caller's own attempt is among the counted ones.
  const slack = reserved ? 0 : 1;
  if (s.address_count + slack > limits.perAddressPerMinute) {
    throw new TooManyRequests("Too many failed logins from your address; try again later.", s.address_retry ?? 60);
  }
  // Whoever keeps an account over its limit cannot lock out its owner on another address.
  if (s.account_count + slack > limits.perAccountPerHour && s.own_count > 0) {
    throw new TooManyRequests("Too many failed logins for this account from your address; try again later.", s.own_retry ?? 3600);
  }
  if (s.streak_retry !== null && s.streak_retry > 0) {
    throw new TooManyRequests("Too many failed logins in a row; wait before trying again.", s.streak_retry);
  }
}

/**
 * Admits one login attempt or throws TooManyRequests. An admitted attempt holds a reserved
 * failure row while the password is checked, so that concurrent attempts cannot all slip under
 * a limit; `succeeded` removes it, `failed` keeps it and lengthens the streak.
 */
export async function admitLoginAttempt(db: Kysely<Database>, account: string, ip: string, limits: LoginLimits) {
  refuse(await standing(db, account, ip, limits), limits, false);
  const { id } = await db.insertInto("login_failures").values({ account, ip }).returning("id").executeTakeFirstOrThrow();
  try {
    refuse(await standing(db, account, ip, limits, id), limits, true);
  } catch (error) {
    await db.deleteFrom("login_failures").where("id", "=", id).execute();
    throw error;
  }
  return {
    async succeeded(trx: Kysely<Database>): Promise<void> {
      await trx.deleteFrom("login_failures").where("id", "=", id).execute();
      await trx.deleteFrom("login_streaks").where("account", "=", account).where("ip", "=", ip).execute();
    },
    async failed(trx: Kysely<Database>): Promise<void> {
      await trx
        .insertInto("login_streaks")
        .values({ account, ip, failures: 1, last_failed_at: sql<Date>`now()` })
        .onConflict((oc) =>
          oc.columns(["account", "ip"]).doUpdateSet({ failures: sql`login_streaks.failures + 1`, last_failed_at: sql<Date>`now()` }),
        )
        .execute();
      // Rows older than the longest window count for nothing.
      await trx
        .deleteFrom("login_failures")
        .where((eb) => eb.or([eb("account", "=", account), eb("ip", "=", ip)]))
        .where("failed_at", "<", sql<Date>`now() - interval '1 hour'`)
        .execute();
    },
  };
}
