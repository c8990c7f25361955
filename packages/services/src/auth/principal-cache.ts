import type { Principal } from "./principal.ts";

/** What a credential look-up found, with what may invalidate it and how long it may be trusted. */
export interface PrincipalLookup {
  principal: Principal;
  /** Names of what the answer depends on: `token:<id>`, `user:<id>` (the NOTIFY payloads). */
  tags: string[];
  /** How long until the credential itself expires; null when it does not. */
  expiresInMs: number | null;
}

export const AUTH_CHANGES_CHANNEL = "vexil_auth_changes";
export const tokenTag = (tokenId: number) => `token:${tokenId}`;
export const userTag = (userId: number) => `user:${userId}`;

export interface PrincipalCache {
  /** The principal for a credential: from the cache when fresh, else from `lookUp` (and then cached). */
  resolve(credential: string, lookUp: () => Promise<PrincipalLookup | null>): Promise<Principal | null>;
  /** Forgets every answer that depends on `tag`. */
  invalidate(tag: string): void;
  /** Invalidations may be missed from now on: forget everything and cache nothing until resume(). */
  suspend(): void;
  resume(): void;
}

interface Entry {
  principal: Principal;
  tags: string[];
  until: number;
}

export interface PrincipalCacheOptions {
  /** The longest an answer is kept, as a backstop; 0 turns the cache off. */
  ttlMs: number;
  maxEntries?: number;
}

/**
 * An in-process cache of credential -> principal, so that a request does not look up its token or
 * session in the database every time. It is only correct while every change reaches it: the
 * database announces changes (see the auth-change-notifications migration), this process
 * applies the ones it makes itself at once, and while the announcements cannot be heard the
 * cache is suspended. Unknown credentials are never cached, so a new token works at once anywhere.
 */
export function createPrincipalCache({ ttlMs, maxEntries = 10_000 }: PrincipalCacheOptions): PrincipalCache {
  const entries = new Map<string, Entry>();
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
      if (hit && hit.until > Date.now()) return hit.principal;
      if (hit) entries.delete(credential);
      const startedAt = generation;
      const found = await lookUp();
      if (!found) return null;
      if (active && ttlMs > 0 && startedAt === generation && (found.expiresInMs === null || found.expiresInMs > 0)) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        const lifetime = found.expiresInMs === null ? ttlMs : Math.min(ttlMs, found.expiresInMs);
        entries.set(credential, { principal: found.principal, tags: found.tags, until: Date.now() + lifetime });
      }
      return found.principal;
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
