import { randomUUID } from "node:crypto";
import type { Database } from "@vexil/db";
import type { Kysely, Selectable, Transaction } from "kysely";
import { RootRole } from "../auth/permissions.ts";
import type { Principal } from "../auth/principal.ts";
import { NameExistsError, NotFoundError } from "../errors/domain-error.ts";
import { appendEvent } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { isUniqueViolation, USERNAME_INDEXES } from "../users/unique-violation.ts";
import { toUser, userEventData } from "../users/user.ts";
import { parseScimFilter, scimPage } from "./scim-filter.ts";
import { parsePatchOperations } from "./scim-patch-operations.ts";
import { patchUserState, type ScimUser, type ScimUserState, stateOfRow, toScimUser, userStateFromResource } from "./scim-user.ts";

type UserRow = Selectable<Database["users"]>;

/** A page of a SCIM list (RFC 7644 §3.4.2). */
export interface ScimPage<T> {
  totalResults: number;
  startIndex: number;
  resources: T[];
}

export interface ScimListQuery {
  filter?: string | undefined;
  startIndex?: number | undefined;
  count?: number | undefined;
}

export const SCIM_MAX_RESULTS = 100;

/** The users SCIM provisioned (never one made by hand), filtered by `userName`, `externalId` or `id` equality, a page at a time. */
export async function listScimUsers(db: Kysely<Database>, query: ScimListQuery): Promise<ScimPage<ScimUser>> {
  const terms = parseScimFilter(query.filter, ["userName", "externalId", "id"]);
  const { offset, limit } = scimPage(query.startIndex, query.count, SCIM_MAX_RESULTS);
  let select = db.selectFrom("users").where("scim_id", "is not", null);
  for (const { attribute, value } of terms) {
    // userName is case-insensitive in SCIM (RFC 7643 §4.1.1); the ids are exact.
    if (attribute === "username") select = select.where((eb) => eb(eb.fn("lower", ["username"]), "=", value.toLowerCase()));
    else select = select.where(attribute === "id" ? "scim_id" : "scim_external_id", "=", value);
  }
  const { total } = await select.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const rows = limit === 0 ? [] : await select.selectAll().orderBy("id").offset(offset).limit(limit).execute();
  return { totalResults: Number(total), startIndex: offset + 1, resources: rows.map(toScimUser) };
}

export async function getScimUser(db: Kysely<Database>, id: string): Promise<ScimUser> {
  return toScimUser(await scimUserRow(db, id, false));
}

async function scimUserRow(db: Kysely<Database>, id: string, lock: boolean): Promise<UserRow> {
  const query = db.selectFrom("users").selectAll().where("scim_id", "=", id);
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw new NotFoundError(`There is no SCIM user with the id "${id}".`);
  return row;
}

/** Unique usernames and e-mails: a taken one is SCIM's 409 uniqueness. */
async function uniquely<T>(state: () => ScimUserState | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (USERNAME_INDEXES.some((index) => isUniqueViolation(error, index)))
      throw new NameExistsError(`The userName "${state()?.userName}" is taken.`);
    if (isUniqueViolation(error, "users_email_lower_idx")) throw new NameExistsError(`The e-mail "${state()?.email}" is taken.`);
    throw error;
  }
}

/** SCIM's userName is case-insensitive (RFC 7643 §4.1.1), as every username is here: `Dana` and `dana` are one name. */
async function assertUserNameFree(trx: Transaction<Database>, userName: string, self: number | null): Promise<void> {
  let query = trx
    .selectFrom("users")
    .select("id")
    .where((eb) => eb(eb.fn("lower", ["username"]), "=", userName.toLowerCase()));
  if (self !== null) query = query.where("id", "!=", self);
  if (await query.executeTakeFirst()) throw new NameExistsError(`The userName "${userName}" is taken.`);
}

/** Provisions a user (POST /scim/v2/Users): a Viewer, without a password, who signs in through the identity provider. */
export async function createScimUser(db: Kysely<Database>, by: Principal, body: unknown): Promise<ScimUser> {
  const state = userStateFromResource(body);
  return uniquely(
    () => state,
    () =>
      inTransaction(db, async (trx) => {
        await assertUserNameFree(trx, state.userName, null);
        const row = await trx
          .insertInto("users")
          .values({
            username: state.userName,
            email: state.email,
            name: state.displayName,
            root_role: RootRole.Viewer,
            active: state.active,
            scim_id: randomUUID(),
            scim_external_id: state.externalId,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await appendEvent(trx, by, { type: "user-created", data: { ...userEventData(toUser(row)), scimId: row.scim_id } });
        return toScimUser(row);
      }),
  );
}

/** Replaces what Vexil keeps of a provisioned user (PUT): attributes left out are cleared, `active` left out is true. */
export async function replaceScimUser(db: Kysely<Database>, by: Principal, id: string, body: unknown): Promise<ScimUser> {
  const state = userStateFromResource(body);
  return uniquely(
    () => state,
    () => inTransaction(db, async (trx) => writeUserState(trx, by, await scimUserRow(trx, id, true), state)),
  );
}

/** Applies a PatchOp to a provisioned user, as Okta and Entra send them (docs/scim.md#patch). */
export async function patchScimUser(db: Kysely<Database>, by: Principal, id: string, body: unknown): Promise<ScimUser> {
  const operations = parsePatchOperations(body);
  let state: ScimUserState | undefined;
  return uniquely(
    () => state,
    () =>
      inTransaction(db, async (trx) => {
        const row = await scimUserRow(trx, id, true);
        state = patchUserState(stateOfRow(row), operations);
        return writeUserState(trx, by, row, state);
      }),
  );
}

/**
 * Stores a provisioned user's new state. Deactivating ends the user's sessions and deletes their
 * personal access tokens in the same transaction, and every instance's credential cache hears of
 * it at commit (docs/auth.md#credential-cache), so a leaver's next request is refused anywhere.
 */
async function writeUserState(trx: Transaction<Database>, by: Principal, before: UserRow, state: ScimUserState): Promise<ScimUser> {
  if (state.userName.toLowerCase() !== (before.username ?? "").toLowerCase()) await assertUserNameFree(trx, state.userName, before.id);
  const row = await trx
    .updateTable("users")
    .set({
      username: state.userName,
      email: state.email,
      name: state.displayName,
      scim_external_id: state.externalId,
      active: state.active,
    })
    .where("id", "=", before.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  let sessionsEnded = 0;
  let tokensDeleted = 0;
  if (!row.active) {
    sessionsEnded = Number((await trx.deleteFrom("sessions").where("user_id", "=", row.id).executeTakeFirst()).numDeletedRows);
    tokensDeleted = Number((await trx.deleteFrom("api_tokens").where("user_id", "=", row.id).executeTakeFirst()).numDeletedRows);
  }
  const changed = before.active !== row.active ? (row.active ? "user-reactivated" : "user-deactivated") : "user-updated";
  await appendEvent(trx, by, {
    type: changed,
    preData: { ...userEventData(toUser(before)), active: before.active },
    data: { ...userEventData(toUser(row)), active: row.active, ...(row.active ? {} : { sessionsEnded, tokensDeleted }) },
  });
  return toScimUser(row);
}

/** Deprovisions a user (DELETE): the row goes, and with it its sessions, tokens and memberships. */
export async function deleteScimUser(db: Kysely<Database>, by: Principal, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await scimUserRow(trx, id, true);
    await trx.deleteFrom("users").where("id", "=", row.id).execute();
    await appendEvent(trx, by, { type: "user-deleted", preData: { ...userEventData(toUser(row)), scimId: row.scim_id }, data: null });
  });
}
