import { type Kysely, sql } from "kysely";

interface CatalogColumn {
  name: string;
  /** As Postgres spells it (`timestamp with time zone`), for casting text back. */
  type: string;
  identity: boolean;
}

export interface CatalogTable {
  name: string;
  /** Every stored column, in table order; generated columns are left out, being derived. */
  columns: CatalogColumn[];
  primaryKey: string[];
}

/** Not carried: Kysely's own bookkeeping (the document's version names the schema instead). */
const NOT_CARRIED = new Set(["kysely_migration", "kysely_migration_lock"]);

/** Columns not carried for the same reason: a flag's tag keys are written by trigger as its tags are imported (docs/search.md#tag-keys). */
const DERIVED_COLUMNS = new Set(["features.tag_keys"]);

/**
 * The tables of the current schema as the database itself describes them, parents before the
 * tables whose foreign keys point at them, so that what later migrations add is included as is.
 */
export async function readSchemaCatalog(db: Kysely<any>): Promise<CatalogTable[]> {
  const { rows: columns } = await sql<{ table: string; column: string; type: string; identity: boolean }>`
    select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type",
           a.attidentity <> '' as "identity"
    from pg_class c
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')
    order by c.relname, a.attnum`.execute(db);
  const { rows: keys } = await sql<{ table: string; column: string }>`
    select c.relname as "table", a.attname as "column"
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join lateral unnest(k.conkey) with ordinality as key(attnum, position) on true
    join pg_attribute a on a.attrelid = c.oid and a.attnum = key.attnum
    where k.contype = 'p' and c.relnamespace = current_schema()::regnamespace
    order by c.relname, key.position`.execute(db);
  const { rows: references } = await sql<{ table: string; parent: string }>`
    select distinct c.relname as "table", p.relname as "parent"
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_class p on p.oid = k.confrelid
    where k.contype = 'f' and c.relnamespace = current_schema()::regnamespace and p.oid <> c.oid`.execute(db);

  const tables = new Map<string, CatalogTable>();
  for (const row of columns) {
    if (NOT_CARRIED.has(row.table) || DERIVED_COLUMNS.has(`${row.table}.${row.column}`)) continue;
    const table = tables.get(row.table) ?? { name: row.table, columns: [], primaryKey: [] };
    table.columns.push({ name: row.column, type: row.type, identity: row.identity });
    tables.set(row.table, table);
  }
  for (const key of keys) tables.get(key.table)?.primaryKey.push(key.column);
  return inForeignKeyOrder([...tables.values()], references);
}

/** Parents first; among tables free to go, by name, so that the order is the same every time. */
function inForeignKeyOrder(tables: CatalogTable[], references: { table: string; parent: string }[]): CatalogTable[] {
  const ordered: CatalogTable[] = [];
  const placed = new Set<string>();
  let pending = [...tables].sort((a, b) => a.name.localeCompare(b.name));
  while (pending.length) {
    const ready = pending.filter((t) => references.every((r) => r.table !== t.name || placed.has(r.parent)));
    // A cycle of foreign keys cannot be ordered; none exists, and a migration adding one must say how to load it.
    if (!ready.length) throw new Error(`foreign keys form a cycle among ${pending.map((t) => t.name).join(", ")}`);
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
    pending = pending.filter((t) => !placed.has(t.name));
  }
  return ordered;
}
