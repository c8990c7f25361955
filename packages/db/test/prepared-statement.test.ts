import { CompiledQuery, sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { preparedStatement } from "../src/index.ts";
import { createTestDb } from "../src/test-database.ts";

const HOT = preparedStatement("vexil_test_hot_query", "select $1::int + 1 as n");

// Named statements live in a Postgres session; PGlite has no pool to name them on.
if (process.env.TEST_DATABASE_URL || process.env.DATABASE_URL) {
  test("a marked query runs as a named prepared statement on its connection; others stay unnamed", async () => {
    const testDb = await createTestDb();
    try {
      const names = await testDb.db.connection().execute(async (conn) => {
        for (const n of [1, 2, 3]) {
          const { rows } = await conn.executeQuery<{ n: number }>(CompiledQuery.raw(HOT, [n]));
          assert.is(rows[0]?.n, n + 1, "the answer is the same as unprepared");
        }
        await conn.executeQuery(CompiledQuery.raw("select $1::int + 2 as n", [1]));
        const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(conn);
        return rows.map((r) => r.name);
      });
      assert.equal(names, ["vexil_test_hot_query"]);
    } finally {
      await testDb.close();
    }
  });
}

test.run();
