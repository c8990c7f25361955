import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";

/**
 * The stamps a page of flags is read under (docs/search.md#one-query): each flag's own, moved by
 * trigger at every write to what its result shows; the epoch, moved by what many results show at
 * once; and the database's clock, since the last hour's counts change with the hour.
 */
export interface ResultStamps {
  epoch: string | null;
  /** In milliseconds since 1970. */
  now: number;
}

interface Cached<T> {
  stamp: string;
  epoch: string;
  /** The counts of the last hour hold until the next hour begins. */
  until: number;
  value: T;
}

/** Most flags an instance keeps the results of: the oldest kept go first (docs/search.md#one-query). */
const KEPT = 100_000;

const HOUR = 3_600_000;

/**
 * Until when what was read at `now` (ms since 1970, the database's clock) may serve: the last
 * hour's counts hold until the next hour begins. Read in an hour's first second, the counts may
 * hold the hour before (the clock is read to the millisecond, Postgres's to the microsecond): 0,
 * kept for no search.
 */
export const keptUntil = (now: number): number => (now % HOUR < 1000 ? 0 : now - (now % HOUR) + HOUR);

/**
 * Per database, what a page showed of each flag beyond its own columns, under the stamps it was read
 * under. A flag's entry serves while its stamp, the epoch and the hour are those of the entry; any
 * instance's write moves the stamp in the database, so every instance sees it at its next search.
 */
export class ResultCache<T> {
  readonly #entries = new Map<string, Cached<T>>();

  /** The value kept for a flag of stamp `stamp`, if it was read under the same stamps. */
  get(name: string, stamp: string, at: ResultStamps): T | undefined {
    const entry = this.#entries.get(name);
    if (!entry || at.epoch === null) return undefined;
    return entry.stamp === stamp && entry.epoch === at.epoch && at.now < entry.until ? entry.value : undefined;
  }

  /**
   * Keeps what was read for a flag, after the stamps `at` were read: the value is then at least as
   * new as they are, so a later write always moves one of them.
   */
  set(name: string, stamp: string, at: ResultStamps, value: T): void {
    if (at.epoch === null) return;
    this.#entries.delete(name);
    this.#entries.set(name, { stamp, epoch: at.epoch, until: keptUntil(at.now), value });
    if (this.#entries.size > KEPT) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }
}

const caches = new WeakMap<Kysely<Database>, ResultCache<unknown>>();

/** The cache of one database handle: one per instance, as the server holds one handle. */
export function resultCacheOf<T>(db: Kysely<Database>): ResultCache<T> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new ResultCache<unknown>()));
  return cache as ResultCache<T>;
}
