import type { Database } from "@vexil/db";
import type { CompiledQuery, Kysely } from "kysely";
import type { FeatureSearchResult } from "./feature-search-result.ts";
import { keptUntil } from "./result-cache.ts";

/** A search's answer: one page of results and how many match in all. */
export interface SearchAnswer {
  readonly features: readonly FeatureSearchResult[];
  readonly total: number;
}

/** What an answer was read under: the answers' generation, and the database's clock (ms since 1970). */
export interface AnswerStamps {
  generation: string;
  now: number;
}

/** The row of the statement that reads the stamps alone. */
interface StampsRow {
  generation: string;
  searched_ms: number;
}

interface Kept {
  generation: bigint;
  /** The last hour's counts hold until the next hour begins (docs/search.md#one-query). */
  until: number;
  answer: SearchAnswer;
}

/** Most answers an instance keeps: the least recently used go first. */
const KEPT_ANSWERS = 2_000;

/** Most results they may hold in all (a page holds up to 1,000; the results themselves are shared with the flags' kept parts). */
const KEPT_RESULTS = 100_000;

/**
 * Per database, the answers of searches already made, each under the answers' generation and the
 * hour it was read in (docs/search.md#one-query). Every write to what a search reads or shows
 * moves the generation at its commit, on any instance: an answer serves a search that reads the
 * same generation in the same hour. Generations only grow: once a newer one is read, nothing kept
 * under an older one can serve again, and all of it is dropped.
 */
export class KeptAnswers {
  readonly #answers = new Map<string, Kept>();
  #results = 0;
  /** The newest generation this instance has read. */
  #latest = 0n;
  /** The statement that reads the generation and the clock, compiled once. */
  #stamps: CompiledQuery<StampsRow> | undefined;

  /** The statement a search made again runs, alone, to know whether its answer still holds: `compile`d at its first use. */
  stampsStatement(compile: () => CompiledQuery<StampsRow>): CompiledQuery<StampsRow> {
    this.#stamps ??= compile();
    return this.#stamps;
  }

  /** Whether an answer is kept for `key`, whatever its stamps. */
  has(key: string): boolean {
    return this.#answers.has(key);
  }

  /** The answer kept for `key`, if it was read under the stamps `at`; counts as a use. */
  get(key: string, at: AnswerStamps): SearchAnswer | undefined {
    this.#saw(BigInt(at.generation));
    const kept = this.#answers.get(key);
    if (!kept || kept.generation !== BigInt(at.generation) || at.now >= kept.until) return undefined;
    this.#answers.delete(key);
    this.#answers.set(key, kept);
    return kept.answer;
  }

  /** Keeps an answer read under the stamps `at` (its page's statement read them, with its rows). */
  set(key: string, at: AnswerStamps, answer: SearchAnswer): void {
    const generation = BigInt(at.generation);
    this.#saw(generation);
    const until = keptUntil(at.now);
    if (generation < this.#latest || until === 0) return;
    this.#forget(key);
    this.#answers.set(key, { generation, until, answer });
    this.#results += answer.features.length;
    for (const oldest of this.#answers.keys()) {
      if ((this.#answers.size <= KEPT_ANSWERS && this.#results <= KEPT_RESULTS) || oldest === key) break;
      this.#forget(oldest);
    }
  }

  #saw(generation: bigint): void {
    if (generation <= this.#latest) return;
    this.#latest = generation;
    this.#answers.clear();
    this.#results = 0;
  }

  #forget(key: string): void {
    const kept = this.#answers.get(key);
    if (!kept) return;
    this.#answers.delete(key);
    this.#results -= kept.answer.features.length;
  }
}

const caches = new WeakMap<Kysely<Database>, KeptAnswers>();

/** The answers kept for one database handle: one per instance, as the server holds one handle. */
export function keptAnswersOf(db: Kysely<Database>): KeptAnswers {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new KeptAnswers()));
  return cache;
}
