import type { Database } from "@vexil/db";
import type { CompiledQuery, Kysely } from "kysely";

/** Most page statements an instance keeps compiled: the least recently used go first. */
const KEPT_PAGES = 2_000;

/**
 * Most names their values may list in all (about 40 bytes each, as the kept terms'): a page of
 * listed terms holds up to 1,000 of them, often the very array the kept terms hold.
 */
const KEPT_NAMES = 200_000;

/** How many names a page's values list (its terms' matches, its array parameters). */
const namesOf = (page: CompiledQuery<unknown>) => page.parameters.reduce<number>((n, v) => n + (Array.isArray(v) ? v.length : 0), 0);

/**
 * Per database, the page statements of searches already made, compiled (docs/search.md#one-query):
 * a page's text and values follow from the search's query and, when its terms list their matches,
 * from the terms' generation those were read under, so a search made again is not built again.
 */
export class CompiledPages {
  readonly #pages = new Map<string, CompiledQuery<unknown>>();
  #names = 0;

  /** The page compiled under `key`, if kept; counts as a use. */
  get<R>(key: string): CompiledQuery<R> | undefined {
    const page = this.#pages.get(key);
    if (page) {
      this.#pages.delete(key);
      this.#pages.set(key, page);
    }
    return page as CompiledQuery<R> | undefined;
  }

  set(key: string, page: CompiledQuery<unknown>): void {
    this.#forget(key);
    this.#pages.set(key, page);
    this.#names += namesOf(page);
    for (const oldest of this.#pages.keys()) {
      if ((this.#pages.size <= KEPT_PAGES && this.#names <= KEPT_NAMES) || oldest === key) break;
      this.#forget(oldest);
    }
  }

  #forget(key: string): void {
    const page = this.#pages.get(key);
    if (!page) return;
    this.#pages.delete(key);
    this.#names -= namesOf(page);
  }
}

const caches = new WeakMap<Kysely<Database>, CompiledPages>();

/** The pages kept for one database handle: one per instance, as the server holds one handle. */
export function compiledPagesOf(db: Kysely<Database>): CompiledPages {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new CompiledPages()));
  return cache;
}
