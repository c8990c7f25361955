import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";

export interface Environment {
  name: string;
  type: string;
  sortOrder: number;
  createdAt: Date;
}

export async function listEnvironments(db: Kysely<Database>): Promise<Environment[]> {
  const rows = await db.selectFrom("environments").selectAll().orderBy("sort_order").orderBy("name").execute();
  return rows.map((r) => ({ name: r.name, type: r.type, sortOrder: r.sort_order, createdAt: r.created_at }));
}
