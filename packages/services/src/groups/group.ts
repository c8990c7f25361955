import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { NotFoundError } from "../errors/domain-error.ts";
import { toUser, type User } from "../users/user.ts";

/** A group as Unleash's admin API shows it (`/api/admin/groups`); `scimId` only on one SCIM provisioned. */
interface Group {
  id: number;
  name: string;
  description: string | null;
  mappingsSSO: string[];
  rootRole: null;
  createdBy: string | null;
  createdAt: Date;
  userCount: number;
  users: { user: User; joinedAt: Date; createdBy: string | null }[];
  scimId?: string;
}

/** Every group with its members, by name (Unleash's order). */
export async function listGroups(db: Kysely<Database>): Promise<Group[]> {
  return groupsWhere(db, null);
}

export async function getGroup(db: Kysely<Database>, id: number): Promise<Group> {
  const [group] = await groupsWhere(db, id);
  if (!group) throw new NotFoundError(`There is no group with id ${id}.`);
  return group;
}

async function groupsWhere(db: Kysely<Database>, id: number | null): Promise<Group[]> {
  let query = db.selectFrom("groups").selectAll();
  if (id !== null) query = query.where("id", "=", id);
  const groups = await query.orderBy("name").execute();
  if (groups.length === 0) return [];
  const members = await db
    .selectFrom("group_users")
    .innerJoin("users", "users.id", "group_users.user_id")
    .selectAll("users")
    .select(["group_users.group_id", "group_users.created_at as joined_at", "group_users.created_by as added_by"])
    .where(
      "group_users.group_id",
      "in",
      groups.map((g) => g.id),
    )
    .orderBy("users.id")
    .execute();
  return groups.map((g) => {
    const users = members
      .filter((m) => m.group_id === g.id)
      .map(({ group_id: _, joined_at, added_by, ...user }) => ({ user: toUser(user), joinedAt: joined_at, createdBy: added_by }));
    return {
      id: g.id,
      name: g.name,
      description: g.description,
      mappingsSSO: [],
      rootRole: null,
      createdBy: g.created_by,
      createdAt: g.created_at,
      userCount: users.length,
      users,
      ...(g.scim_id === null ? {} : { scimId: g.scim_id }),
    };
  });
}
