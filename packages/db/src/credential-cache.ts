/** What a credential look-up found, with what may invalidate it and how long it may be trusted. */
export interface CredentialLookup<T> {
  value: T;
  /** Names of what the answer depends on, as the database announces changes (see auth-changes.ts). */
  tags: string[];
  /** How long until the credential itself expires; null when it does not. */
  expiresInMs: number | null;
}

export interface CredentialCache<T> {
  /** The answer for a credential: from the cache when fresh, else from `lookUp` (and then cached). */
  resolve(credential: string, lookUp: () => Promise<CredentialLookup<T> | null>): Promise<T | null>;
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

  return {
    async resolve(credential, lookUp) {
      const hit = entries.get(credential);
      if (hit && hit.until > Date.now()) return hit.value;
      if (hit) entries.delete(credential);
      const startedAt = generation;
      const found = await lookUp();
      if (!found) return null;
      if (active && ttlMs > 0 && startedAt === generation && (found.expiresInMs === null || found.expiresInMs > 0)) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        const lifetime = found.expiresInMs === null ? ttlMs : Math.min(ttlMs, found.expiresInMs);
        entries.set(credential, { value: found.value, tags: found.tags, until: Date.now() + lifetime });
      }
      return found.value;
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
