import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { featureSearchQuerySchema, searchFeatures } from "../src/index.ts";
import { openTestDb } from "./support/test-db.ts";

// Terms that share a long prefix with many names (every trigram of it common) find exactly the
// flags that hold them whole.
const testDb = await openTestDb();
const db = testDb.kysely;

test.before(async () => {
  await sql`insert into projects (id, name) values ('terms', 'terms')`.execute(db);
  // 500 names sharing "shared-prefix-": every trigram of those two words is common.
  await sql`insert into features (name, project_id, description)
            select 'shared-prefix-' || lpad(g::text, 4, '0'), 'terms', case when g % 2 = 0 then 'Shared description ' || g end
            from generate_series(0, 499) g`.execute(db);
  // Names holding a part of the terms below, but not the terms.
  await sql`insert into features (name, project_id, description) values
            ('other-0123', 'terms', null), ('prefix-xyzzy', 'terms', null), ('zz-plugh', 'terms', 'Shared-Prefix-Plugh in a description')`.execute(
    db,
  );
  await sql`insert into tag_types (name) values ('simple') on conflict do nothing`.execute(db);
  await sql`insert into tags (type, value) values ('simple', 'shared-prefix-xyzzy')`.execute(db);
  await sql`insert into feature_tags (feature_name, tag_type, tag_value) values ('prefix-xyzzy', 'simple', 'shared-prefix-xyzzy')`.execute(
    db,
  );
});
test.after(() => testDb.close());

const search = async (query: string) =>
  (await searchFeatures(db, featureSearchQuerySchema.parse({ query, sortBy: "name", limit: "100" }))).features.map((f) => f.name);

test("a term with a common prefix finds exactly the flags holding it whole, in any case", async () => {
  assert.equal(await search("shared-prefix-0123"), ["shared-prefix-0123"]);
  assert.equal(
    await search("SHARED-Prefix-012"),
    Array.from({ length: 10 }, (_, i) => `shared-prefix-012${i}`),
  );
  // By a tag's value and by a description, each checked whole.
  assert.equal(await search("shared-prefix-xyzzy"), ["prefix-xyzzy"]);
  assert.equal(await search("shared-PREFIX-plugh"), ["zz-plugh"]);
  assert.equal(await search("description 498"), ["shared-prefix-0498"]);
  // Several terms: any of them.
  assert.equal(await search("shared-prefix-0001, other-01"), ["other-0123", "shared-prefix-0001"]);
  assert.is((await search("shared-prefix")).length, 100);
});

test.run();
