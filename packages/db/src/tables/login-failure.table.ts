import type { ColumnType, Generated } from "kysely";

/** One failed (or in-flight) login; the brute-force limits count these rows. */
export interface LoginFailureTable {
  id: Generated<number>;
  account: string;
  ip: string;
  failed_at: ColumnType<Date, Date | undefined, never>;
}

/** Consecutive failures of one account from one address, for the doubling delay. */
export interface LoginStreakTable {
  account: string;
  ip: string;
  failures: number;
  last_failed_at: Date;
}
