import { sql } from "kysely";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { rarePart, trigramCounts } from "../src/feature-search/rare-part.ts";
import { featureSearchQuerySchema, searchFeatures } from "../src/index.ts";
import { openTestDb } from "./support/test-db.ts";

// A query term is looked up in pg_trgm's indexes by its rare part and checked whole on the rows
// found (docs/search.md#indexes): the answers must be those of the whole term.
const testDb = await openTestDb();
const db = testDb.kysely;

test.before(async () => {
  await sql`insert into projects (id, name) values ('terms', 'terms')`.execute(db);
  // 500 names sharing "shared-prefix-": every trigram of those two words is common.
  await sql`insert into features (name, project_id, description)
            select 'shared-prefix-' || lpad(g::text, 4, '0'), 'terms', case when g % 2 = 0 then 'Shared description ' || g end
            from generate_series(0, 499) g`.execute(db);
  // Names holding a rare part of the terms below, but not the terms.
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

test("the part is the longest run of rare trigrams in one word; the whole term when there is none", () => {
  // Counts in a sample of 1,000 names.
  const shares = new Map([
    ["sha", 900],
    ["har", 900],
    ["are", 900],
    ["red", 900],
    ["pre", 900],
    ["ref", 900],
    ["efi", 900],
    ["fix", 900],
    ["012", 500],
    ["123", 20],
  ]);
  assert.is(rarePart("Shared-Prefix-0123", shares), "123");
  assert.is(rarePart("shared-prefix-01234", shares), "1234");
  assert.is(rarePart("shared-prefix-xyzzy", shares), "xyzzy");
  assert.is(rarePart("CHECKOUT", shares), "CHECKOUT");
  assert.is(rarePart("shared-prefix", shares), "shared-prefix");
  assert.is(rarePart("ab", shares), "ab");
  assert.is(rarePart("a_b%c", shares), "a_b%c");
  // A word whose lower case is longer (İ is two characters in lower case) is not taken apart.
  assert.is(rarePart("İstanbul-shared", shares), "İstanbul-shared");
});

test("the sample of the database finds the common trigrams", async () => {
  const shares = await trigramCounts(db);
  assert.is(shares.get("pre"), 501, "prefix is in every name of the sample, and one description");
  assert.is(rarePart("shared-prefix-0123", shares), "0123");
  assert.is(rarePart("SHARED-PREFIX-XYZZY", shares), "XYZZY");
});

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
  // Every trigram common: the whole term, read from the index as before.
  assert.is((await search("shared-prefix")).length, 100);
});

test.run();
