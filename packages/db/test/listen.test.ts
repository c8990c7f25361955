import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AUTH_CHANGES_CHANNEL, connectDatabase, tokenTag } from "../src/index.ts";
import { createTestDb } from "../src/test-database.ts";

const testDb = await createTestDb();
const { kysely: db } = testDb;

/** Listens on the auth channel of `on` and resolves once the listener hears every change. */
async function heard(on: typeof testDb) {
  const messages: string[] = [];
  const waiting = new Map<string, () => void>();
  let listening!: () => void;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const listener = on.listen(AUTH_CHANGES_CHANNEL, {
    onMessage: (payload) => {
      messages.push(payload);
      waiting.get(payload)?.();
    },
    onListening: () => listening(),
    onLost: () => {},
  });
  await ready;
  const arrival = (payload: string) => new Promise<void>((resolve) => waiting.set(payload, resolve));
  return { messages, arrival, listener };
}

test("a write's own notice is heard before the write returns, and once", async () => {
  const { messages, arrival, listener } = await heard(testDb);
  try {
    const token = async () =>
      (
        await db
          .insertInto("api_tokens")
          .values({ type: "admin", token_name: "t", secret_hash: `h${Math.random()}`, projects: '["*"]', environment: "*" })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    const first = await token();
    await db.deleteFrom("api_tokens").where("id", "=", first).execute();
    assert.equal(messages, [tokenTag(first)], "autocommitted");
    const second = await token();
    await db.transaction().execute((trx) => trx.updateTable("api_tokens").set({ token_name: "u" }).where("id", "=", second).execute());
    assert.equal(messages, [tokenTag(first), tokenTag(second)], "committed by a transaction");
    // A later notice from elsewhere has come through the listening connection: the own ones were not repeated there.
    const marker = arrival("marker");
    await sql`select pg_notify(${AUTH_CHANGES_CHANNEL}, 'marker')`.execute(db);
    await marker;
    assert.equal(messages, [tokenTag(first), tokenTag(second), "marker"]);
  } finally {
    await listener.close();
  }
});

// Another instance needs a real Postgres: PGlite serves one process.
if (testDb.databaseUrl) {
  test("another instance's notice reaches the listener", async () => {
    const { arrival, listener } = await heard(testDb);
    const other = connectDatabase({ databaseUrl: testDb.databaseUrl, poolSize: 1 });
    try {
      const notice = arrival("from-elsewhere");
      await sql`select pg_notify(${AUTH_CHANGES_CHANNEL}, 'from-elsewhere')`.execute(other.kysely);
      await notice;
    } finally {
      await other.close();
      await listener.close();
    }
  });
}

test.after(() => testDb.close());
test.run();
