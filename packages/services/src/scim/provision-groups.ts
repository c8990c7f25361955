import { randomUUID } from "node:crypto";
import type { Database } from "@vexil/db";
import type { Kysely, Selectable, Transaction } from "kysely";
import { actorName, type Principal } from "../auth/principal.ts";
import { NameExistsError, NotFoundError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { isUniqueViolation } from "../users/unique-violation.ts";
import { type ScimListQuery, type ScimPage, SCIM_MAX_RESULTS } from "./provision-users.ts";
import { GROUP_SCHEMA, groupStateFromResource, patchGroupState, type ScimGroup, type ScimGroupState } from "./scim-group.ts";
import { parseScimFilter, scimPage } from "./scim-filter.ts";
import { parsePatchOperations } from "./scim-patch-operations.ts";
import { ScimRefusal } from "./scim-refusal.ts";

type GroupRow = Selectable<Database["groups"]>;
type Member = { value: string; display: string };

/** Members are left out where the provider asks (`excludedAttributes=members`, Entra's way on large groups). */
export interface ScimGroupView {
  withMembers: boolean;
}

async function membersOf(db: Kysely<Database>, groupIds: number[]): Promise<Map<number, Member[]>> {
  const byGroup = new Map<number, Member[]>();
  if (groupIds.length === 0) return byGroup;
  const rows = await db
    .selectFrom("group_users")
    .innerJoin("users", "users.id", "group_users.user_id")
    .select(["group_users.group_id", "users.scim_id", "users.username", "users.email", "users.name"])
    .where("group_users.group_id", "in", groupIds)
    .where("users.scim_id", "is not", null)
    .orderBy("users.id")
    .execute();
  for (const row of rows) {
    const list = byGroup.get(row.group_id) ?? [];
    list.push({ value: row.scim_id as string, display: row.name ?? row.username ?? row.email ?? "" });
    byGroup.set(row.group_id, list);
  }
  return byGroup;
}

function toScimGroup(row: GroupRow, members: Member[] | undefined): ScimGroup {
  const id = row.scim_id as string;
  return {
    schemas: [GROUP_SCHEMA],
    id,
    ...(row.scim_external_id === null ? {} : { externalId: row.scim_external_id }),
    displayName: row.name,
    ...(members === undefined ? {} : { members: members.map((m) => ({ ...m, type: "User" as const })) }),
    meta: { resourceType: "Group", created: row.created_at, location: `/scim/v2/Groups/${id}` },
  };
}

async function scimGroups(db: Kysely<Database>, rows: GroupRow[], view: ScimGroupView): Promise<ScimGroup[]> {
  const members = view.withMembers
    ? await membersOf(
        db,
        rows.map((r) => r.id),
      )
    : undefined;
  return rows.map((row) => toScimGroup(row, members ? (members.get(row.id) ?? []) : undefined));
}

/** The groups SCIM provisioned, filtered by `displayName`, `externalId` or `id` equality, a page at a time. */
export async function listScimGroups(db: Kysely<Database>, query: ScimListQuery, view: ScimGroupView): Promise<ScimPage<ScimGroup>> {
  const terms = parseScimFilter(query.filter, ["displayName", "externalId", "id"]);
  const { offset, limit } = scimPage(query.startIndex, query.count, SCIM_MAX_RESULTS);
  let select = db.selectFrom("groups").where("scim_id", "is not", null);
  for (const { attribute, value } of terms) {
    if (attribute === "displayname") select = select.where((eb) => eb(eb.fn("lower", ["name"]), "=", value.toLowerCase()));
    else select = select.where(attribute === "id" ? "scim_id" : "scim_external_id", "=", value);
  }
  const { total } = await select.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const rows = limit === 0 ? [] : await select.selectAll().orderBy("id").offset(offset).limit(limit).execute();
  return { totalResults: Number(total), startIndex: offset + 1, resources: await scimGroups(db, rows, view) };
}

export async function getScimGroup(db: Kysely<Database>, id: string, view: ScimGroupView): Promise<ScimGroup> {
  const [group] = await scimGroups(db, [await scimGroupRow(db, id, false)], view);
  return group as ScimGroup;
}

async function scimGroupRow(db: Kysely<Database>, id: string, lock: boolean): Promise<GroupRow> {
  const query = db.selectFrom("groups").selectAll().where("scim_id", "=", id);
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw new NotFoundError(`There is no SCIM group with the id "${id}".`);
  return row;
}

async function uniquely<T>(name: () => string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, "groups_name_key")) throw new NameExistsError(`A group named "${name()}" exists.`);
    throw error;
  }
}

/** Provisions a group with its members (POST /scim/v2/Groups). */
export async function createScimGroup(db: Kysely<Database>, by: Principal, body: unknown): Promise<ScimGroup> {
  const state = groupStateFromResource(body);
  return uniquely(
    () => state.displayName,
    () =>
      inTransaction(db, async (trx) => {
        const row = await trx
          .insertInto("groups")
          .values({
            name: state.displayName,
            scim_id: randomUUID(),
            scim_external_id: state.externalId,
            created_by: actorName(by),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await setMembers(trx, by, row, state.members);
        await appendEvent(trx, by, {
          type: "group-created",
          data: { id: row.id, name: row.name, scimId: row.scim_id, members: state.members },
        });
        const [group] = await scimGroups(trx, [row], { withMembers: true });
        return group as ScimGroup;
      }),
  );
}

/** Replaces a provisioned group's name, externalId and members (PUT). */
export async function replaceScimGroup(
  db: Kysely<Database>,
  by: Principal,
  id: string,
  body: unknown,
  view: ScimGroupView,
): Promise<ScimGroup> {
  const state = groupStateFromResource(body);
  return uniquely(
    () => state.displayName,
    () => inTransaction(db, async (trx) => writeGroupState(trx, by, await scimGroupRow(trx, id, true), state, view)),
  );
}

/** Applies a PatchOp to a provisioned group: members added and removed as Entra and Okta send them, a rename. */
export async function patchScimGroup(
  db: Kysely<Database>,
  by: Principal,
  id: string,
  body: unknown,
  view: ScimGroupView,
): Promise<ScimGroup> {
  const operations = parsePatchOperations(body);
  let state: ScimGroupState | undefined;
  return uniquely(
    () => state?.displayName,
    () =>
      inTransaction(db, async (trx) => {
        const row = await scimGroupRow(trx, id, true);
        const members = (await membersOf(trx, [row.id])).get(row.id) ?? [];
        state = patchGroupState(
          { displayName: row.name, externalId: row.scim_external_id, members: members.map((m) => m.value) },
          operations,
        );
        return writeGroupState(trx, by, row, state, view);
      }),
  );
}

async function writeGroupState(
  trx: Transaction<Database>,
  by: Principal,
  before: GroupRow,
  state: ScimGroupState,
  view: ScimGroupView,
): Promise<ScimGroup> {
  const row = await trx
    .updateTable("groups")
    .set({ name: state.displayName, scim_external_id: state.externalId })
    .where("id", "=", before.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await setMembers(trx, by, row, state.members);
  await appendEvent(trx, by, {
    type: "group-updated",
    preData: { id: before.id, name: before.name },
    data: { id: row.id, name: row.name, scimId: row.scim_id, members: state.members },
  });
  const [group] = await scimGroups(trx, [row], view);
  return group as ScimGroup;
}

/** Makes the group's members exactly these provisioned users; an id that is no provisioned user is SCIM's invalidValue. */
async function setMembers(trx: Transaction<Database>, by: Principal, group: GroupRow, scimIds: string[]): Promise<void> {
  const users = scimIds.length ? await trx.selectFrom("users").select(["id", "scim_id"]).where("scim_id", "in", scimIds).execute() : [];
  const unknown = scimIds.filter((s) => !users.some((u) => u.scim_id === s));
  if (unknown.length) {
    throw new ScimRefusal("invalidValue", `There is no SCIM user with the id "${unknown[0]}" to make a member.`, "members");
  }
  const ids = users.map((u) => u.id);
  let gone = trx.deleteFrom("group_users").where("group_id", "=", group.id);
  if (ids.length) gone = gone.where("user_id", "not in", ids);
  await gone.execute();
  if (ids.length) {
    await trx
      .insertInto("group_users")
      .values(ids.map((user_id) => ({ group_id: group.id, user_id, created_by: actorName(by) })))
      .onConflict((oc) => oc.columns(["group_id", "user_id"]).doNothing())
      .execute();
  }
}

/** Deprovisions a group (DELETE); its memberships go with it. */
export async function deleteScimGroup(db: Kysely<Database>, by: Principal, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await scimGroupRow(trx, id, true);
    await trx.deleteFrom("groups").where("id", "=", row.id).execute();
    await appendEvent(trx, by, { type: "group-deleted", preData: { id: row.id, name: row.name, scimId: row.scim_id }, data: null });
  });
}
