import type { Kysely } from "kysely";
import type { Database } from "./database.ts";

interface Batch<K, V> {
  keys: K[];
  waiters: { resolve(value: V): void; reject(error: unknown): void }[];
}

/**
 * Look-ups of one kind that arrive in the same turn of the event loop share one query:
 * `lookUpAll` answers many keys at once, one result per key, in order. Each query runs after every
 * look-up in it arrived, so none sees less than it would alone, and nothing is kept between turns.
 * Inside a transaction a look-up runs at once, on the transaction's connection.
 */
export function batchedLookUp<K, V>(
  lookUpAll: (db: Kysely<Database>, keys: readonly K[]) => Promise<V[]>,
  { maxBatch = 100 }: { maxBatch?: number } = {},
): (db: Kysely<Database>, key: K) => Promise<V> {
  const pending = new WeakMap<Kysely<Database>, Batch<K, V>>();

  // A query that fails fails every look-up in it: no key can break it that would not break alone.
  const run = (db: Kysely<Database>, { keys, waiters }: Batch<K, V>) => {
    for (let start = 0; start < keys.length; start += maxBatch) {
      const part = waiters.slice(start, start + maxBatch);
      lookUpAll(db, keys.slice(start, start + maxBatch)).then(
        (results) => {
          for (const [i, waiter] of part.entries()) waiter.resolve(results[i] as V);
        },
        (error) => {
          for (const waiter of part) waiter.reject(error);
        },
      );
    }
  };

  return (db, key) => {
    if (db.isTransaction) return lookUpAll(db, [key]).then((results) => results[0] as V);
    let batch = pending.get(db);
    if (!batch) {
      const started: Batch<K, V> = (batch = { keys: [], waiters: [] });
      pending.set(db, started);
      setImmediate(() => {
        pending.delete(db);
        run(db, started);
      });
    }
    batch.keys.push(key);
    return new Promise<V>((resolve, reject) => batch.waiters.push({ resolve, reject }));
  };
}
