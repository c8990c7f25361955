import type { Database } from "@vexil/db";
import type { Kysely, Selectable } from "kysely";

export interface Environment {
  name: string;
  type: string;
  sortOrder: number;
  createdAt: Date;
}

/** The one place where an environment row becomes an environment. */
export function environmentFromRow(row: Selectable<Database["environments"]>): Environment {
  return { name: row.name, type: row.type, sortOrder: row.sort_order, createdAt: row.created_at };
}

export async function listEnvironments(db: Kysely<Database>): Promise<Environment[]> {
  const rows = await db.selectFrom("environments").selectAll().orderBy("sort_order").orderBy("name").execute();
  return rows.map(environmentFromRow);
}
