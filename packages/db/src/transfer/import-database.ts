import { type Kysely, sql } from "kysely";
import { analyzeTables } from "../analyze-tables.ts";
import type { Database } from "../database.ts";
import { migrations } from "../migrations/index.ts";
import { type CatalogTable, readSchemaCatalog } from "./schema-catalog.ts";
import { refuseOtherSchema, schemaVersion } from "./schema-version.ts";
import type { DocumentTable, TransferDocument } from "./transfer-document.ts";
import { TransferRefused } from "./transfer-refused.ts";

// Rows per INSERT: few statements, and far below Postgres' limit of 65,535 parameters.
const BATCH_ROWS = 200;

/**
 * Loads a read document into this database, in one transaction, provided that the database is
 * empty (it holds nothing but what its migrations put there, which the document replaces) and at
 * the document's schema. Ids are kept, and identity sequences continue after them.
 */
export async function importDatabase(
  db: Kysely<Database>,
  document: TransferDocument,
  progress: (line: string) => void,
): Promise<{ statisticsFailed?: string }> {
  await db.transaction().execute(async (trx) => {
    refuseOtherSchema(document.header, await schemaVersion(trx), "this database");
    const catalog = await readSchemaCatalog(trx);
    const byName = matchTables(catalog, document);
    await refuseUnlessEmpty(trx, catalog);

    // What the migrations seeded (the default project, its environments) is replaced by the document's.
    for (const table of [...catalog].reverse()) await sql`delete from ${sql.table(table.name)}`.execute(trx);
    for (const table of catalog) {
      const rows = byName.get(table.name) as DocumentTable;
      await insertRows(trx, table, rows);
      await continueIdentities(trx, table);
      progress(`${table.name}: ${rows.rows.length} row${rows.rows.length === 1 ? "" : "s"}`);
    }
  });
  // As after pg_restore, the whole database (the search's stamps too, which the import's triggers
  // wrote): its tables were near empty when last analyzed, and every connection would keep planning
  // them so (docs/search.md#statistics-after-bulk-writes). The import is committed by now: a failure
  // here is told, not thrown.
  try {
    await analyzeTables(db);
    return {};
  } catch (error) {
    return { statisticsFailed: error instanceof Error ? error.message : String(error) };
  }
}

/** The document must hold exactly this database's tables, each with exactly its columns. */
function matchTables(catalog: CatalogTable[], document: TransferDocument): Map<string, DocumentTable> {
  const byName = new Map(document.tables.map((t) => [t.name, t]));
  for (const table of catalog) {
    const found = byName.get(table.name);
    if (!found) throw new TransferRefused(`the document lacks the table ${table.name}`);
    const expected = table.columns.map((c) => c.name).sort();
    if (JSON.stringify([...found.columns].sort()) !== JSON.stringify(expected)) {
      throw new TransferRefused(
        `the document's columns of ${table.name} (${found.columns.join(", ")}) are not this database's (${expected.join(", ")})`,
      );
    }
  }
  const unknown = document.tables.find((t) => !catalog.some((c) => c.name === t.name));
  if (unknown) throw new TransferRefused(`the document holds a table this database lacks: ${unknown.name}`);
  return byName;
}

/**
 * Empty means: each table's primary keys are those a freshly migrated database holds. That is
 * learnt by running the migrations into a scratch schema inside a savepoint that is rolled back,
 * so that rows seeded by migrations yet to come are recognised without naming them here.
 */
async function refuseUnlessEmpty(trx: Kysely<Database>, catalog: CatalogTable[]): Promise<void> {
  const present = await primaryKeysOf(trx, catalog);
  await sql`savepoint vexil_seed`.execute(trx);
  let seeded: Map<string, string[]>;
  try {
    await sql`create schema vexil_seed`.execute(trx);
    await sql`set local search_path = vexil_seed`.execute(trx);
    for (const name of Object.keys(migrations).sort()) await migrations[name]!.up(trx);
    seeded = await primaryKeysOf(trx, await readSchemaCatalog(trx));
  } finally {
    await sql`rollback to savepoint vexil_seed`.execute(trx);
  }
  for (const table of catalog) {
    if (JSON.stringify(present.get(table.name)) !== JSON.stringify(seeded.get(table.name) ?? [])) {
      throw new TransferRefused(`the database is not empty (the table ${table.name} holds data): import goes into a new database only`);
    }
  }
}

async function primaryKeysOf(db: Kysely<any>, catalog: CatalogTable[]): Promise<Map<string, string[]>> {
  const keys = new Map<string, string[]>();
  for (const table of catalog) {
    const key = table.primaryKey.length ? table.primaryKey : table.columns.map((c) => c.name);
    const { rows } = await sql<{ key: string }>`select row(${sql.join(key.map((n) => sql.ref(n)))})::text as key
      from ${sql.table(table.name)} order by 1`.execute(db);
    keys.set(
      table.name,
      rows.map((r) => r.key),
    );
  }
  return keys;
}

async function insertRows(trx: Kysely<Database>, table: CatalogTable, rows: DocumentTable): Promise<void> {
  const types = new Map(table.columns.map((c) => [c.name, c.type]));
  const columns = sql.join(rows.columns.map((n) => sql.ref(n)));
  for (let start = 0; start < rows.rows.length; start += BATCH_ROWS) {
    const batch = rows.rows.slice(start, start + BATCH_ROWS);
    // Each value goes in as text and is cast to its column's type, the inverse of the export.
    const values = batch.map(
      ({ values }) =>
        sql`(${sql.join(values.map((v, i) => sql`cast(${v} as ${sql.raw(types.get(rows.columns[i] as string) as string)})`))})`,
    );
    try {
      await sql`insert into ${sql.table(table.name)} (${columns}) overriding system value values ${sql.join(values)}`.execute(trx);
    } catch (error) {
      const lines = `${batch[0]?.line}-${batch.at(-1)?.line}`;
      throw new TransferRefused(`lines ${lines}: rows of ${table.name} the database refused: ${(error as Error).message}`);
    }
  }
}

/** A row created after the import gets the next id after the imported ones. */
async function continueIdentities(trx: Kysely<Database>, table: CatalogTable): Promise<void> {
  for (const column of table.columns.filter((c) => c.identity)) {
    await sql`select setval(pg_get_serial_sequence(${table.name}, ${column.name}),
      coalesce((select max(${sql.ref(column.name)}) from ${sql.table(table.name)}), 0) + 1, false)`.execute(trx);
  }
}
