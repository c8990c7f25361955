import type { ColumnType } from "kysely";

export interface ProjectTable {
  id: string;
  name: string;
  description: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface ProjectEnvironmentTable {
  project_id: string;
  environment_name: string;
}
