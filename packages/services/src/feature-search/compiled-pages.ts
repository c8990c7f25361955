import type { Database } from "@vexil/db";
import type { CompiledQuery, Kysely } from "kysely";

/** Most page statements an instance keeps compiled: the least recently used go first. */
const KEPT_PAGES = 2_000;

/**
 * Per database, the page statements of searches already made, compiled (docs/search.md#compiled-pages):
 * a page's text and values follow from the search's query and, when its terms list their matches,
 * from the terms' generation those were read under, so a search made again is not built again.
 */
export class CompiledPages {
  readonly #pages = new Map<string, CompiledQuery<unknown>>();

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
    this.#pages.delete(key);
    this.#pages.set(key, page);
    if (this.#pages.size > KEPT_PAGES) {
      const oldest = this.#pages.keys().next();
      if (!oldest.done) this.#pages.delete(oldest.value);
    }
  }
}

const caches = new WeakMap<Kysely<Database>, CompiledPages>();

/** The pages kept for one database handle: one per instance, as the server holds one handle. */
export function compiledPagesOf(db: Kysely<Database>): CompiledPages {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new CompiledPages()));
  return cache;
}
