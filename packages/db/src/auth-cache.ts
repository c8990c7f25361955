import { AUTH_CHANGES_CHANNEL } from "./auth-changes.ts";
import type { DatabaseConnection } from "./create-db.ts";
import { type CredentialCacheOptions, type CredentialLookup, createCredentialCache } from "./credential-cache.ts";

export interface AuthCache<T> {
  /** The answer for a credential: from the cache when fresh (at once, no promise), else a promise of `lookUp`'s (and then cached). */
  resolve(credential: string, lookUp: () => Promise<CredentialLookup<T> | null>): T | Promise<T | null>;
  /** Settles when the announcements are first heard: from then on answers are cached. */
  listening: Promise<void>;
  close(): Promise<void>;
}

/**
 * A cache of who credentials stand for that forgets an answer whenever a row it depends on
 * changes, whoever changes it: the database announces every change to tokens, sessions and users
 * (triggers, NOTIFY), this instance's own writes before the write returns and other instances' a
 * moment later. While the announcements cannot be heard it caches nothing.
 */
export function createAuthCache<T>(
  db: DatabaseConnection,
  options: CredentialCacheOptions & {
    onLost?(error?: unknown): void;
    /** Hears each announced change after the cache forgot what depends on it (open streams end theirs). */
    onChange?(tag: string): void;
  },
): AuthCache<T> {
  const cache = createCredentialCache<T>(options);
  let heard: () => void = () => {};
  const listening = new Promise<void>((resolve) => {
    heard = resolve;
  });
  const listener = db.listen(AUTH_CHANGES_CHANNEL, {
    onMessage: (tag) => {
      cache.invalidate(tag);
      options.onChange?.(tag);
    },
    onListening: () => {
      cache.resume();
      heard();
    },
    onLost: (error) => {
      cache.suspend();
      options.onLost?.(error);
    },
  });
  return { resolve: (credential, lookUp) => cache.resolve(credential, lookUp), listening, close: () => listener.close() };
}
