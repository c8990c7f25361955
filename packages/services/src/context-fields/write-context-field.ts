import type { Database } from "@vexil/db";
import type { Kysely, Selectable, Transaction } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { ConflictError, NameExistsError } from "../errors/domain-error.ts";
import { parseInput } from "../errors/parse-input.ts";
import { appendEvent } from "../events/append-event.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import {
  type ContextField,
  contextFieldChangesSchema,
  contextFieldFromRow,
  contextFieldInputSchema,
  type LegalValue,
  legalValueSchema,
  storedLegalValue,
} from "./context-field.ts";
import { contextFieldNotFound, strategiesNaming } from "./list-context-fields.ts";

const nameTaken = () => new NameExistsError("A context field with that name already exist");

/** POST /context/validate: the name could be a new context field's (400 if not valid, 409 if taken). */
export async function validateContextFieldName(db: Kysely<Database>, input: unknown): Promise<void> {
  const { name } = parseInput(contextFieldInputSchema.pick({ name: true }), input, "", "The context field");
  if (await db.selectFrom("context_fields").select("name").where("name", "=", name).executeTakeFirst()) throw nameTaken();
}

export async function createContextField(db: Kysely<Database>, by: Principal | null, input: unknown): Promise<ContextField> {
  const field = parseInput(contextFieldInputSchema, input, "", "The context field");
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto("context_fields")
      .values({
        name: field.name,
        description: field.description ?? null,
        stickiness: field.stickiness ?? false,
        sort_order: field.sortOrder ?? 0,
        legal_values: JSON.stringify((field.legalValues ?? []).map(storedLegalValue)),
      })
      .onConflict((oc) => oc.column("name").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw nameTaken();
    const created = contextFieldFromRow(row);
    await appendEvent(trx, by, { type: "context-field-created", data: created });
    return created;
  });
}

/** The field's row, locked for the change; a 404 when there is none. */
async function lockedField(trx: Transaction<Database>, name: string): Promise<Selectable<Database["context_fields"]>> {
  const row = await trx.selectFrom("context_fields").selectAll().where("name", "=", name).forNoKeyUpdate().executeTakeFirst();
  if (!row) throw contextFieldNotFound(name);
  return row;
}

/** Stores the field's new description, stickiness, order and legal values, with its event. */
async function storeChanges(
  trx: Transaction<Database>,
  by: Principal | null,
  before: ContextField,
  after: Omit<ContextField, "name" | "createdAt">,
): Promise<void> {
  const row = await trx
    .updateTable("context_fields")
    .set({
      description: after.description,
      stickiness: after.stickiness,
      sort_order: after.sortOrder,
      legal_values: JSON.stringify(after.legalValues),
    })
    .where("name", "=", before.name)
    .returningAll()
    .executeTakeFirstOrThrow();
  await appendEvent(trx, by, { type: "context-field-updated", data: contextFieldFromRow(row), preData: before });
}

/**
 * PUT /context/{name}: the description, stickiness and legal values given replace the stored
 * ones (a field left out is cleared, as in Unleash); the sort order changes only when given
 * (docs/context-fields.md#differences-from-unleash).
 */
export async function updateContextField(db: Kysely<Database>, by: Principal | null, name: string, input: unknown): Promise<void> {
  const changes = parseInput(contextFieldChangesSchema, input, "", "The context field");
  await inTransaction(db, async (trx) => {
    const before = contextFieldFromRow(await lockedField(trx, name));
    await storeChanges(trx, by, before, {
      description: changes.description ?? null,
      stickiness: changes.stickiness ?? false,
      sortOrder: changes.sortOrder ?? before.sortOrder,
      legalValues: (changes.legalValues ?? []).map(storedLegalValue),
    });
  });
}

/** POST /context/{name}/legal-values: adds the value, or replaces the one of the same value. */
export async function upsertLegalValue(db: Kysely<Database>, by: Principal | null, name: string, input: unknown): Promise<void> {
  const legal = storedLegalValue(parseInput(legalValueSchema, input, "", "The legal value"));
  await inTransaction(db, async (trx) => {
    const before = contextFieldFromRow(await lockedField(trx, name));
    const at = before.legalValues.findIndex((v) => v.value === legal.value);
    const legalValues: LegalValue[] = at === -1 ? [...before.legalValues, legal] : before.legalValues.with(at, legal);
    await storeChanges(trx, by, before, { ...before, legalValues });
  });
}

/** DELETE /context/{name}/legal-values/{value}: removes the value (none to remove changes nothing but the event, as in Unleash). */
export async function deleteLegalValue(db: Kysely<Database>, by: Principal | null, name: string, value: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const before = contextFieldFromRow(await lockedField(trx, name));
    await storeChanges(trx, by, before, { ...before, legalValues: before.legalValues.filter((v) => v.value !== value) });
  });
}

/** DELETE /context/{name}: refused (409) while a strategy of a live flag constrains on it. */
export async function deleteContextField(db: Kysely<Database>, by: Principal | null, name: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const before = contextFieldFromRow(await lockedField(trx, name));
    const used = await strategiesNaming(trx, name).select("s.id").limit(1).executeTakeFirst();
    if (used)
      throw new ConflictError("This context field is in use by existing flags. To delete it, first remove its usage from all flags.");
    await trx.deleteFrom("context_fields").where("name", "=", name).execute();
    await appendEvent(trx, by, { type: "context-field-deleted", data: null, preData: before });
  });
}
