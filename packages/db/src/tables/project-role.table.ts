import type { ColumnType } from "kysely";

/** A user's role in a project (Unleash's role_user): 4 Owner, 5 Member, 6 Viewer (docs/project-roles.md). */
export interface RoleUserTable {
  project: string;
  user_id: number;
  role_id: number;
  created_by: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** A group's role in a project (Unleash's group_role): every member holds it there. */
export interface GroupRoleTable {
  project: string;
  group_id: number;
  role_id: number;
  created_by: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}
