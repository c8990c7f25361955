import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";

// Which part of a query term few flag names share, so that pg_trgm's index is asked for that part
// only and the whole term is checked on the rows it finds (docs/search.md#indexes).

/** Texts of each kind in a sample, and how long one is kept before it is drawn again. */
const SAMPLE_SIZE = 1000;
const SAMPLE_MAX_AGE_MS = 10 * 60_000;
/**
 * A trigram in more of the sampled texts of a kind than this is common (2% of a full sample): its
 * list in the index is long. In a table smaller than the sample, the count is the list's length.
 */
const COMMON_COUNT = 20;

/** Per trigram, in how many sampled texts of one kind (names, descriptions, tag values) it is, the most of the three. */
type TrigramCounts = Map<string, number>;

const samples = new WeakMap<Kysely<Database>, { drawnAt: number; counts: Promise<TrigramCounts> }>();

/** Runs of letters and digits, lower-cased: the words pg_trgm takes its trigrams from. */
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function trigramsOf(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= word.length; i++) out.push(word.slice(i, i + 3));
  return out;
}

/** Adds each trigram's count in these texts to `counts`, where larger than what is there. */
function addCounts(counts: TrigramCounts, texts: string[]): void {
  const these = new Map<string, number>();
  for (const text of texts) {
    for (const t of new Set(wordsOf(text).flatMap(trigramsOf))) these.set(t, (these.get(t) ?? 0) + 1);
  }
  for (const [t, n] of these) counts.set(t, Math.max(counts.get(t) ?? 0, n));
}

/** Random names, descriptions and tag values: the three texts a query term is looked up in. */
async function drawSample(db: Kysely<Database>): Promise<TrigramCounts> {
  const random = sql`random()`;
  const [names, descriptions, tagValues] = await Promise.all([
    db.selectFrom("features").select("name as text").orderBy(random).limit(SAMPLE_SIZE).execute(),
    db
      .selectFrom("features")
      .select("description as text")
      .where("description", "is not", null)
      .orderBy(random)
      .limit(SAMPLE_SIZE)
      .$narrowType<{ text: string }>()
      .execute(),
    db.selectFrom("feature_tags").select("tag_value as text").orderBy(random).limit(SAMPLE_SIZE).execute(),
  ]);
  const counts: TrigramCounts = new Map();
  for (const rows of [names, descriptions, tagValues])
    addCounts(
      counts,
      rows.map((r) => r.text),
    );
  return counts;
}

/** The sample's trigram counts, drawn again when older than SAMPLE_MAX_AGE_MS (a failed draw is retried). */
export function trigramCounts(db: Kysely<Database>, now = Date.now()): Promise<TrigramCounts> {
  const kept = samples.get(db);
  if (kept && now - kept.drawnAt < SAMPLE_MAX_AGE_MS) return kept.counts;
  const counts = drawSample(db);
  samples.set(db, { drawnAt: now, counts });
  counts.catch(() => samples.delete(db));
  return counts;
}

/**
 * The longest run of letters and digits in the term whose trigrams are all rare in the sample,
 * or the term itself when it has none (every trigram common, or no trigram at all). The part is
 * a substring of the term, so every name holding the term holds the part.
 */
export function rarePart(term: string, counts: TrigramCounts): string {
  let best = "";
  for (const word of term.match(/[\p{L}\p{N}]+/gu) ?? []) {
    const lower = word.toLowerCase();
    // A word whose lower case has another length (İ) is left to the whole term.
    if (lower.length !== word.length) continue;
    let start = 0;
    // Extends a run of rare trigrams across the word; a common one ends it.
    for (let i = 0; i + 3 <= lower.length; i++) {
      if ((counts.get(lower.slice(i, i + 3)) ?? 0) > COMMON_COUNT) {
        start = i + 1;
        continue;
      }
      if (i + 3 - start > best.length) best = word.slice(start, i + 3);
    }
  }
  return best === "" || best.length === term.length ? term : best;
}
