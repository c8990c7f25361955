import { type Kysely, sql } from "kysely";
import type { Database } from "../database.ts";
import { readSchemaCatalog } from "./schema-catalog.ts";
import { schemaVersion } from "./schema-version.ts";
import { DocumentWriter, type RowValues } from "./transfer-document.ts";

/**
 * Writes every table of the schema, rows in primary-key order, each value in Postgres' own text
 * form (exact for timestamps to the microsecond, bigints, jsonb), from one consistent snapshot.
 */
export async function exportDatabase(
  db: Kysely<Database>,
  write: (text: string) => void | Promise<void>,
  progress: (line: string) => void,
): Promise<void> {
  await db
    .transaction()
    .setIsolationLevel("repeatable read")
    .setAccessMode("read only")
    .execute(async (trx) => {
      const writer = new DocumentWriter(write);
      await writer.begin({ schema: await schemaVersion(trx), exportedAt: new Date().toISOString() });
      for (const table of await readSchemaCatalog(trx)) {
        const names = table.columns.map((c) => c.name);
        await writer.table(table.name, names);
        const order = table.primaryKey.length ? table.primaryKey : names;
        const { rows } = await sql<RowValues>`select ${sql.join(names.map((n) => sql`${sql.ref(n)}::text`))}
          from ${sql.table(table.name)} order by ${sql.join(order.map((n) => sql.ref(n)))}`.execute(trx);
        for (const row of rows) await writer.row(Object.values(row));
        progress(`${table.name}: ${rows.length} row${rows.length === 1 ? "" : "s"}`);
      }
      await writer.end();
    });
}
