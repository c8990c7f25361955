import type { ColumnType, Generated } from "kysely";

/** A group of users (Unleash's groups), made by hand or by an identity provider over SCIM (docs/scim.md). */
export interface GroupTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  /** The SCIM id Vexil gave a group it provisioned; null for a group made by hand. */
  scim_id: string | null;
  /** The identity provider's own id of that group (SCIM's externalId). */
  scim_external_id: string | null;
  created_by: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** A user's membership of a group. */
export interface GroupUserTable {
  group_id: number;
  user_id: number;
  created_by: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}
