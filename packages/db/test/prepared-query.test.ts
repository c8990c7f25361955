import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { batchedLookUp, connectDatabase, preparedQuery, textRows } from "../src/index.ts";
import { createTestDb } from "../src/test-database.ts";

const testDb = await createTestDb();
const { kysely: db } = testDb;
await db
  .insertInto("projects")
  .values([
    { id: "alpha", name: "Alpha" },
    { id: "beta", name: "Beta" },
  ])
  .execute();

const projectNames = preparedQuery("vexil_test_project_names", (db, p: { ids: string[] }) =>
  db
    .selectFrom("projects")
    .select(["id", "name"])
    .where("id", "=", (eb) => eb.fn.any(eb.val(p.ids)))
    .orderBy("id"),
);
const numbered = preparedQuery("vexil_test_numbered", (db, p: { words: string[] }) =>
  db
    .selectFrom(textRows("w", { word: p.words }))
    .select(["w.word", "w.position"])
    .orderBy("w.position"),
);

test("a prepared query answers like the query it is, for each set of parameters", async () => {
  assert.equal(await projectNames.execute(db, { ids: ["beta", "alpha", "nope"] }), [
    { id: "alpha", name: "Alpha" },
    { id: "beta", name: "Beta" },
  ]);
  assert.equal(await projectNames.execute(db, { ids: ["beta"] }), [{ id: "beta", name: "Beta" }]);
  assert.equal(await projectNames.execute(db, { ids: [] }), []);
  assert.equal(await numbered.execute(db, { words: ["b", "a", "b"] }), [
    { word: "b", position: 1 },
    { word: "a", position: 2 },
    { word: "b", position: 3 },
  ]);
});

test("two prepared queries cannot share a name", async () => {
  const clash = preparedQuery("vexil_test_project_names", (db, p: { ids: string[] }) =>
    db
      .selectFrom("projects")
      .select("id")
      .where("id", "=", (eb) => eb.fn.any(eb.val(p.ids))),
  );
  const error = await clash.execute(db, { ids: [] }).catch((e: unknown) => e);
  assert.match(String(error), /named "vexil_test_project_names"/);
});

test("look-ups of one turn share one query, each gets its own answer, and a transaction's run at once", async () => {
  const batches: string[][] = [];
  const nameOf = batchedLookUp(async (db, ids: readonly string[]) => {
    batches.push([...ids]);
    const rows = await projectNames.execute(db, { ids: [...ids] });
    return ids.map((id) => rows.find((row) => row.id === id)?.name ?? null);
  });
  assert.equal(await Promise.all([nameOf(db, "alpha"), nameOf(db, "nope"), nameOf(db, "beta")]), ["Alpha", null, "Beta"]);
  assert.equal(batches, [["alpha", "nope", "beta"]]);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("projects").set({ name: "Renamed" }).where("id", "=", "alpha").execute();
    assert.is(await nameOf(trx, "alpha"), "Renamed", "sees the transaction's own write");
  });
});

// Named statements live in a Postgres session; PGlite has one connection and no statement names.
if (testDb.databaseUrl) {
  test("on Postgres a prepared query runs as a named statement of its connection; others stay unnamed", async () => {
    const single = connectDatabase({ databaseUrl: testDb.databaseUrl, poolSize: 1 });
    try {
      for (const ids of [["alpha"], ["beta"], ["alpha", "beta"]]) await projectNames.execute(single.kysely, { ids });
      await single.kysely.selectFrom("projects").select("id").where("id", "=", "alpha").execute();
      const { rows } = await sql<{
        name: string;
        calls: number;
      }>`select name, generic_plans + custom_plans as calls from pg_prepared_statements`.execute(single.kysely);
      assert.equal(rows, [{ name: "vexil_test_project_names", calls: 3 }]);
    } finally {
      await single.close();
    }
  });
}

test.after(() => testDb.close());
test.run();
