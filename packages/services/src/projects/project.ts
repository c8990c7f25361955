import type { Database } from "@vexil/db";
import type { Selectable } from "kysely";

export interface Project {
  id: string;
  name: string;
  description: string | null;
  createdAt: Date;
}

/** The one place where a project row becomes a project. */
export function projectFromRow(row: Selectable<Database["projects"]>): Project {
  return { id: row.id, name: row.name, description: row.description, createdAt: row.created_at };
}
