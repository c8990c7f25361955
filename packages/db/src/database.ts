import type { EnvironmentTable } from "./tables/environment.table.ts";
import type { EventTable } from "./tables/event.table.ts";
import type { ProjectEnvironmentTable, ProjectTable } from "./tables/project.table.ts";

/** Every table Vexil keeps, as Kysely sees it. Columns are snake_case in SQL and here. */
export interface Database {
  environments: EnvironmentTable;
  projects: ProjectTable;
  project_environments: ProjectEnvironmentTable;
  events: EventTable;
}
