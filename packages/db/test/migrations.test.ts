import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { connectDatabase, migrateToLatest } from "../src/index.ts";
import { migrations } from "../src/migrations/index.ts";
import { createTestDb } from "../src/test-database.ts";

const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const allMigrations = Object.keys(migrations);

test("PGlite: migrates an empty database, seeds it, and answers int8 as numbers", async () => {
  const dir = mkdtempSync(join(tmpdir(), "vexil-pglite-"));
  try {
    const first = connectDatabase({ dataDir: dir });
    const outcome = await migrateToLatest(first.kysely);
    assert.equal(outcome.applied, allMigrations);
    const envs = await first.kysely.selectFrom("environments").select("name").orderBy("sort_order").execute();
    assert.equal(
      envs.map((e) => e.name),
      ["development", "production"],
    );
    const { rows } = await sql<{ n: number }>`select count(*) as n from environments`.execute(first.kysely);
    assert.is(rows[0]?.n, 2);
    await first.kysely.insertInto("projects").values({ id: "kept", name: "Kept" }).execute();
    await first.close();

    // The data directory keeps what was written, and a second start has nothing to migrate.
    const second = connectDatabase({ dataDir: dir });
    assert.equal((await migrateToLatest(second.kysely)).applied, []);
    const kept = await second.kysely.selectFrom("projects").select("id").where("id", "=", "kept").execute();
    assert.equal(kept, [{ id: "kept" }]);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("test databases are fresh, migrated and separate", async () => {
  const a = await createTestDb();
  const b = await createTestDb();
  try {
    await a.kysely.insertInto("projects").values({ id: "only-in-a", name: "A" }).execute();
    const inB = await b.kysely.selectFrom("projects").select("id").where("id", "=", "only-in-a").execute();
    assert.equal(inB, []);
    const seeded = await b.kysely.selectFrom("project_environments").selectAll().orderBy("environment_name").execute();
    assert.equal(seeded, [
      { project_id: "default", environment_name: "development" },
      { project_id: "default", environment_name: "production" },
    ]);
  } finally {
    await a.close();
    await b.close();
  }
});

test("usernames unique whatever their case: case-duplicates are renamed, not a failed migration", async () => {
  const db = await createTestDb();
  try {
    const migration = migrations["2026-12-01T13-00-identity-hardening"]!;
    await migration.down!(db.kysely);
    const ids = [];
    for (const username of ["Dana", "dana", "DANA", "erin"]) {
      ids.push((await db.kysely.insertInto("users").values({ username, root_role: 3 }).returning("id").executeTakeFirstOrThrow()).id);
    }
    await migration.up(db.kysely);
    const rows = await db.kysely.selectFrom("users").select(["id", "username"]).where("id", "in", ids).orderBy("id").execute();
    assert.equal(
      rows.map((r) => r.username),
      ["Dana", `dana-${ids[1]}`, `DANA-${ids[2]}`, "erin"],
      "the oldest keeps the name",
    );
    let refused: unknown;
    await db.kysely
      .insertInto("users")
      .values({ username: "ERIN", root_role: 3 })
      .execute()
      .catch((error) => (refused = error));
    assert.is((refused as { constraint?: string }).constraint, "users_username_lower_key");
  } finally {
    await db.close();
  }
});

if (serverUrl) {
  test("Postgres: two instances migrating at once apply each migration exactly once", async () => {
    const name = `vexil_race_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const one = connectDatabase({ databaseUrl: url.toString() });
    const two = connectDatabase({ databaseUrl: url.toString() });
    try {
      const [r1, r2] = await Promise.all([migrateToLatest(one.kysely), migrateToLatest(two.kysely)]);
      assert.equal([...r1.applied, ...r2.applied].sort(), [...allMigrations].sort());
      const { rows } = await sql<{ n: number }>`select count(*) as n from environments`.execute(one.kysely);
      assert.is(rows[0]?.n, 2, "seed rows were written once and int8 came back as a number");
    } finally {
      await one.close();
      await two.close();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
}

test.run();
