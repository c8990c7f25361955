import { createHash } from "node:crypto";
import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { exportDatabase, importDatabase, readDocument, type TransferDocument, TransferRefused } from "../src/index.ts";
import { migrations } from "../src/migrations/index.ts";
import { createTestDb, type TestDb } from "../src/test-database.ts";

async function exported(db: TestDb): Promise<string> {
  let text = "";
  await exportDatabase(
    db.kysely,
    (chunk) => void (text += chunk),
    () => {},
  );
  return text;
}

/** The document with its trailer's digest made again, as a forger who knows the format would. */
function resealed(text: string): string {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.startsWith('{"trailer":'));
  const digest = createHash("sha256")
    .update(
      lines
        .slice(0, at)
        .map((l) => `${l}\n`)
        .join(""),
    )
    .digest("hex");
  lines[at] = lines[at]!.replace(/"sha256":"[0-9a-f]+"/, `"sha256":"${digest}"`);
  return lines.join("\n");
}

/** Every line but the header's export time and the trailer's digest, which differ between two exports of the same data. */
const comparable = (text: string) => text.replace(/"exportedAt":"[^"]+"/, "").replace(/"sha256":"[0-9a-f]+"/, "");

/** A source and a target database for one test, both closed after it. */
async function withTwoDatabases(run: (source: TestDb, target: TestDb) => Promise<void>): Promise<void> {
  const source = await createTestDb();
  const target = await createTestDb();
  try {
    await run(source, target);
  } finally {
    await source.close();
    await target.close();
  }
}

/** The refusal that importing `document` into `target` ends in; a success fails the test. */
async function importRefusal(target: TestDb, document: TransferDocument): Promise<Error> {
  const refusal = await importDatabase(target.kysely, document, () => {}).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.instance(refusal, TransferRefused, "the import was not refused");
  return refusal as Error;
}

async function populate(db: TestDb): Promise<void> {
  await db.kysely
    .insertInto("users")
    .values({ username: "ada", password_hash: "$2b$10$abcdefghijklmnopqrstuuJ0mJ0mJ0mJ0mJ0mJ0mJ0mJ0mJ0mJ0m", root_role: 1 })
    .execute();
  await db.kysely.insertInto("users").values({ username: "bo", email: "bo@example.com", root_role: 3 }).execute();
  await db.kysely
    .insertInto("api_tokens")
    .values({ type: "admin", token_name: "ci", secret_hash: "f".repeat(64), projects: JSON.stringify(["*"]), environment: "*" })
    .execute();
  await sql`insert into banners (message, created_at) values ('first', '2026-01-02 03:04:05.123456+00'), ('second', '2026-01-02 03:04:05.123457+00')`.execute(
    db.kysely,
  );
  await db.kysely.deleteFrom("banners").where("message", "=", "first").execute();
  await db.kysely.insertInto("projects").values({ id: "web", name: "Web", description: null }).execute();
  await db.kysely.deleteFrom("projects").where("id", "=", "default").execute();
  await db.kysely.insertInto("project_environments").values({ project_id: "web", environment_name: "production" }).execute();
  await db.kysely.insertInto("features").values({ name: "checkout", project_id: "web" }).execute();
  await db.kysely
    .insertInto("feature_environments")
    .values({
      feature_name: "checkout",
      environment_name: "production",
      enabled: true,
      variants: JSON.stringify([{ name: "a", weight: 1000 }]),
    })
    .execute();
  await sql`insert into tag_types (name) values ('team') on conflict do nothing`.execute(db.kysely);
  await sql`insert into tags (type, value) values ('team', 'pay'), ('simple', 'b:c')`.execute(db.kysely);
  await sql`insert into feature_tags (feature_name, tag_type, tag_value) values ('checkout', 'team', 'pay'), ('checkout', 'simple', 'b:c')`.execute(
    db.kysely,
  );
  await sql`insert into events (type, created_by, data) values ('feature-created', 'ada', '{"name":"checkout","n":1.50}')`.execute(
    db.kysely,
  );
}

// Every table but the migrator's.
test("the export covers every table and column of the migrated schema, parents before children", async () => {
  const db = await createTestDb();
  try {
    const document = readDocument(await exported(db));
    const { rows } = await sql<{ table: string; column: string }>`
      select c.table_name as "table", c.column_name as "column" from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE' and c.table_name not like 'kysely_migration%'
        -- A flag's tag keys, which the tags' trigger writes as they are imported (docs/search.md#tag-keys).
        and (c.table_name, c.column_name) <> ('features', 'tag_keys')
      order by 1, c.ordinal_position`.execute(db.kysely);
    const inSchema = rows.map((r) => `${r.table}.${r.column}`).sort();
    const inDocument = document.tables.flatMap((t) => t.columns.map((c) => `${t.name}.${c}`)).sort();
    assert.equal(inDocument, inSchema);
    const names = document.tables.map((t) => t.name);
    assert.ok(
      names.indexOf("projects") < names.indexOf("features") && names.indexOf("users") < names.indexOf("change_requests"),
      names.join(),
    );
    assert.is(document.header.schema, Object.keys(migrations).sort().at(-1));
  } finally {
    await db.close();
  }
});

test("import reproduces every row (ids, microsecond timestamps, jsonb, hashes), and new rows get fresh ids", () =>
  withTwoDatabases(async (source, target) => {
    await populate(source);
    const text = await exported(source);
    await importDatabase(target.kysely, readDocument(text), () => {});
    assert.is(comparable(await exported(target)), comparable(text));
    // Not carried, the flags' tag keys are written again by the tags' trigger.
    const keys = await sql<{ tag_keys: string[] }>`select tag_keys from features where name = 'checkout'`.execute(target.kysely);
    assert.equal(keys.rows, [{ tag_keys: ["simple:b:c", "team:pay"] }]);
    const banners = await sql<{ id: number; at: string }>`select id, created_at::text as at from banners`.execute(target.kysely);
    assert.equal(banners.rows, [{ id: 2, at: "2026-01-02 03:04:05.123457+00" }]);
    const next = await target.kysely.insertInto("banners").values({ message: "after" }).returning("id").executeTakeFirstOrThrow();
    assert.is(next.id, 3);
    const user = await target.kysely.insertInto("users").values({ username: "cy", root_role: 2 }).returning("id").executeTakeFirstOrThrow();
    assert.is(user.id, 3);
  }));

test("after an import every table's statistics know its rows, as after pg_restore and ANALYZE", () =>
  withTwoDatabases(async (source, target) => {
    await populate(source);
    await source.kysely.insertInto("features").values({ name: "search", project_id: "web" }).execute();
    const known = () =>
      sql<{ table: string; rows: number }>`
        select relname as "table", reltuples::int as rows from pg_class
        where oid in ('features'::regclass, 'events'::regclass, 'feature_tags'::regclass)
        order by 1`.execute(target.kysely);
    // Never analyzed: -1, which the planner reads as a table as small as its pages.
    assert.equal(
      (await known()).rows.map((r) => r.rows),
      [-1, -1, -1],
    );
    assert.equal(await importDatabase(target.kysely, readDocument(await exported(source)), () => {}), {});
    assert.equal((await known()).rows, [
      { table: "events", rows: 1 },
      { table: "feature_tags", rows: 2 },
      { table: "features", rows: 2 },
    ]);
  }));

test("import refuses a database that is not new, changing nothing", () =>
  withTwoDatabases(async (source, target) => {
    await populate(source);
    const document = readDocument(await exported(source));
    await target.kysely.insertInto("banners").values({ message: "already here" }).execute();
    const before = comparable(await exported(target));
    assert.match((await importRefusal(target, document)).message, /not empty \(the table banners holds data\)/);
    assert.is(comparable(await exported(target)), before);
  }));

test("import refuses a document of another schema or format version", () =>
  withTwoDatabases(async (source, target) => {
    const text = await exported(source);
    const older = readDocument(resealed(text.replace(/"schema":"[^"]+"/, '"schema":"2020-01-01T00-00-old"')));
    assert.match(
      (await importRefusal(target, older)).message,
      /^line 1: the document is of schema 2020-01-01T00-00-old, this database is at /,
    );
    assert.throws(
      () => readDocument(resealed(text.replace('"format":1', '"format":2'))),
      /^line 1: the document's format is 2; this Vexil reads format 1$/,
    );
  }));

test("a changed, broken or cut document is refused with the line it broke on", () =>
  withTwoDatabases(async (source, target) => {
    await populate(source);
    const text = await exported(source);
    const lines = text.split("\n");
    const banner = lines.findIndex((l) => l.includes('"second"'));
    const trailer = lines.findIndex((l) => l.startsWith('{"trailer":'));
    const withLine = (at: number, line: string) => lines.map((l, i) => (i === at ? line : l)).join("\n");

    assert.throws(
      () => readDocument(withLine(banner, lines[banner]!.replace("second", "changed"))),
      new RegExp(`^line ${trailer + 1}: the sha256 digest does not match`),
    );
    assert.throws(() => readDocument(withLine(banner, lines[banner]!.slice(0, 20))), new RegExp(`^line ${banner + 1}: not a JSON record`));
    assert.throws(
      () => readDocument(withLine(banner, '["2","only two"],')),
      new RegExp(`^line ${banner + 1}: a row of banners must hold 11 values`),
    );
    assert.throws(
      () => readDocument(lines.slice(0, banner + 1).join("\n")),
      new RegExp(`^line ${banner + 2}: the document ends before its trailer`),
    );
    assert.throws(() => readDocument(lines.slice(0, -2).join("\n")), new RegExp(`^line ${trailer + 2}: the trailer must be followed`));
    assert.throws(() => readDocument(withLine(banner, "")), new RegExp(`^line ${banner + 1}: not a JSON record`));

    // Well formed and resealed, but a value the column cannot hold: the database names the rows' lines, and nothing stays.
    const forged = resealed(withLine(banner, lines[banner]!.replace("2026-01-02 03:04:05.123457+00", "not a time")));
    const refusal = await importRefusal(target, readDocument(forged));
    assert.match(refusal.message, new RegExp(`^lines ${banner + 1}-${banner + 1}: rows of banners the database refused`));
    assert.equal(await target.kysely.selectFrom("users").select("id").execute(), []);
    assert.equal(
      (await target.kysely.selectFrom("projects").select("id").execute()).map((p) => p.id),
      ["default"],
    );
  }));

test.run();
