import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";

/** The flags a query's terms matched, and the terms' generation they were read under (docs/search.md#one-query). */
export interface KeptTerms {
  generation: string;
  names: string[];
}

/** Most names kept over all queries (about 40 bytes each): the least recently used queries go first. */
const KEPT_NAMES = 200_000;

/**
 * Per database, what each query's terms matched (docs/search.md#one-query). An entry serves a
 * search only once the search's page has read the same generation: until then it is a guess.
 */
export class TermsCache {
  readonly #entries = new Map<string, KeptTerms>();
  #names = 0;

  /** What these terms matched when last looked up, if kept; counts as a use. */
  get(key: string): KeptTerms | undefined {
    const kept = this.#entries.get(key);
    if (kept) {
      this.#entries.delete(key);
      this.#entries.set(key, kept);
    }
    return kept;
  }

  /** Keeps what the terms matched under `generation`, read in the same statement as the names. */
  set(key: string, generation: string, names: string[]): void {
    this.forget(key);
    this.#entries.set(key, { generation, names });
    this.#names += names.length;
    for (const [oldest, kept] of this.#entries) {
      if (this.#names <= KEPT_NAMES || oldest === key) break;
      this.#entries.delete(oldest);
      this.#names -= kept.names.length;
    }
  }

  forget(key: string): void {
    const kept = this.#entries.get(key);
    if (!kept) return;
    this.#entries.delete(key);
    this.#names -= kept.names.length;
  }
}

const caches = new WeakMap<Kysely<Database>, TermsCache>();

/** The terms kept for one database handle: one per instance, as the server holds one handle. */
export function termsCacheOf(db: Kysely<Database>): TermsCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new TermsCache()));
  return cache;
}

/** The key of a query's terms: their texts, in order. */
export const termsKey = (terms: string[]): string => JSON.stringify(terms);
