import type { Database } from "@vexil/db";
import type { Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { appendEvent } from "../events/append-event.ts";

const byNumber = (a: number, b: number) => a - b;

/** Who a sign-in's group changes are recorded by: the sign-in itself, as groups and memberships it made say. */
const BY_SIGN_IN = "oidc";

/**
 * docs/oidc.md#groups: the user's memberships of the groups single sign-on manages follow the groups
 * claim at every sign-in. The user joins each group a value names (made, by name, where none has
 * it yet) and leaves every group a sign-in put them in that the claim no longer names. A group SCIM
 * provisions keeps the members SCIM gives it: the sign-in neither joins nor leaves it. The groups'
 * project roles are then the user's, as any group's are (docs/project-roles.md#the-rule).
 */
export async function syncOidcGroups(
  trx: Transaction<Database>,
  user: Extract<Principal, { kind: "user" }>,
  names: readonly string[],
): Promise<void> {
  let groups: { id: number; name: string; scim_id: string | null }[] = [];
  if (names.length > 0) {
    const made = await trx
      .insertInto("groups")
      .values(names.map((name) => ({ name, created_by: BY_SIGN_IN })))
      .onConflict((oc) => oc.column("name").doNothing())
      .returning(["id", "name"])
      .execute();
    for (const group of made) {
      await appendEvent(trx, user, { type: "group-created", data: { id: group.id, name: group.name, createdBy: BY_SIGN_IN } });
    }
    groups = await trx.selectFrom("groups").select(["id", "name", "scim_id"]).where("name", "in", names).execute();
  }
  const managed = groups.filter((g) => g.scim_id === null);
  const joined =
    managed.length === 0
      ? []
      : await trx
          .insertInto("group_users")
          .values(managed.map((g) => ({ group_id: g.id, user_id: user.userId, created_by: BY_SIGN_IN })))
          .onConflict((oc) => oc.columns(["group_id", "user_id"]).doNothing())
          .returning("group_id")
          .execute();
  let leaving = trx.deleteFrom("group_users").where("user_id", "=", user.userId).where("created_by", "=", BY_SIGN_IN);
  if (managed.length > 0) {
    leaving = leaving.where(
      "group_id",
      "not in",
      managed.map((g) => g.id),
    );
  }
  const left = await leaving.returning("group_id").execute();
  if (joined.length > 0 || left.length > 0) {
    await appendEvent(trx, user, {
      type: "user-groups-synced",
      data: { userId: user.userId, joined: joined.map((r) => r.group_id).sort(byNumber), left: left.map((r) => r.group_id).sort(byNumber) },
    });
  }
}
