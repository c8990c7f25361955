import { type Kysely, sql } from "kysely";

/** The schema a database is at: the name of the last migration applied to it. */
export async function schemaVersion(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ name: string | null }>`select max(name) as name from kysely_migration`.execute(db);
  return rows[0]?.name ?? "none";
}
