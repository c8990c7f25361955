/** What a credential look-up found, with what may invalidate it and how long it may be trusted. */
export interface CredentialLookup<T> {
  value: T;
  /** Names of what the answer depends on, as the database announces changes (see auth-changes.ts). */
  tags: string[];
  /** How long until the credential itself expires; null when it does not. */
  expiresInMs: number | null;
}

export interface CredentialCache<T> {
  /**
   * The answer for a credential: from the cache when fresh, at once (no promise: a poll's request
   * waits for nothing), else a promise of `lookUp`'s (and then cached).
   */
  resolve(credential: string, lookUp: () => Promise<CredentialLookup<T> | null>): T | Promise<T | null>;
  /** Forgets every answer that depends on `tag`. */
  invalidate(tag: string): void;
  /** Invalidations may be missed from now on: forget everything and cache nothing until resume(). */
  suspend(): void;
  resume(): void;
}

interface Entry<T> {
  value: T;
  tags: string[];
  until: number;
}

export interface CredentialCacheOptions {
  /** The longest an answer is kept, as a backstop; 0 turns the cache off. */
  ttlMs: number;
  maxEntries?: number;
}

/**
 * An in-process cache of credential -> answer, correct only while every invalidation reaches it;
 * it starts suspended. Unknown credentials are never cached, so a new one works at once anywhere.
 */
export function createCredentialCache<T>({ ttlMs, maxEntries = 10_000 }: CredentialCacheOptions): CredentialCache<T> {
  const entries = new Map<string, Entry<T>>();
  let active = false;
  // Bumped by every invalidation: a look-up that overlapped one may have read the old row.
  let generation = 0;

  const forget = () => {
    entries.clear();
    generation++;
  };

  const lookUpAndKeep = async (credential: string, lookUp: () => Promise<CredentialLookup<T> | null>): Promise<T | null> => {
    const startedAt = generation;
    const found = await lookUp();
    if (!found) return null;
    if (active && ttlMs > 0 && startedAt === generation && (found.expiresInMs === null || found.expiresInMs > 0)) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      const lifetime = found.expiresInMs === null ? ttlMs : Math.min(ttlMs, found.expiresInMs);
      entries.set(credential, { value: found.value, tags: found.tags, until: Date.now() + lifetime });
    }
    return found.value;
  };

  // Look-ups under way, by credential: requests that miss together (a poll's every connection, when
  // its token's answer expires) share one, unless an invalidation came since it started.
  const underWay = new Map<string, { generation: number; answer: Promise<T | null> }>();

  return {
    resolve(credential, lookUp) {
      const hit = entries.get(credential);
      if (hit && hit.until > Date.now()) return hit.value;
      if (hit) entries.delete(credential);
      if (!active || ttlMs === 0) return lookUpAndKeep(credential, lookUp);
      const shared = underWay.get(credential);
      if (shared && shared.generation === generation) return shared.answer;
      const started = { generation, answer: lookUpAndKeep(credential, lookUp) };
      underWay.set(credential, started);
      const done = () => {
        if (underWay.get(credential) === started) underWay.delete(credential);
      };
      started.answer.then(done, done);
      return started.answer;
    },
    invalidate(tag) {
      generation++;
      for (const [credential, entry] of entries) {
        if (entry.tags.includes(tag)) entries.delete(credential);
      }
    },
    suspend() {
      active = false;
      forget();
    },
    resume() {
      forget();
      active = true;
    },
  };
}
