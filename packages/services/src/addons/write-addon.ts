import { randomBytes } from "node:crypto";
import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { Principal } from "../auth/principal.ts";
import { appendEvent } from "../events/append-event.ts";
import { ValidationError } from "../errors/domain-error.ts";
import { inTransaction } from "../transactions/in-transaction.ts";
import { addonProvider } from "./addon-providers.ts";
import { type Addon, type AddonFields, addonFromRow, addonView, assertValidAddon, MASKED } from "./addon.ts";
import { assertAllowedTarget, type TargetPolicy } from "./addon-target.ts";
import { lockAddon } from "./list-addons.ts";

/** What a PUT changes: a field left undefined keeps its value, a null description clears it. */
export interface AddonChanges {
  provider?: string | undefined;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
  parameters?: Record<string, string> | undefined;
  events?: string[] | undefined;
  projects?: string[] | undefined;
  environments?: string[] | undefined;
}

/**
 * Stores a new integration with its `addon-config-created` event (as Unleash names it). Without a
 * `signingSecret` parameter one is made up; the caller sees it once, in this answer.
 */
export async function createAddon(db: Kysely<Database>, by: Principal | null, fields: AddonFields, targets: TargetPolicy): Promise<Addon> {
  const { signingSecret = newSecret(), ...parameters } = fields.parameters;
  assertValidAddon({ ...fields, parameters: { ...parameters, signingSecret } });
  await assertAllowedTarget(parameters.url as string, targets);
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto("addons")
      .values({
        provider: fields.provider,
        description: fields.description ?? null,
        enabled: fields.enabled ?? true,
        parameters: JSON.stringify(parameters),
        events: JSON.stringify(unique(fields.events)),
        projects: JSON.stringify(unique(fields.projects ?? [])),
        environments: JSON.stringify(unique(fields.environments ?? [])),
        signing_secret: signingSecret,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const addon = addonFromRow(row);
    await appendEvent(trx, by, { type: "addon-config-created", data: addonView(addon) });
    return addon;
  });
}

/**
 * Changes an integration and records `addon-config-updated` with it before and after. A sensitive
 * parameter sent back as `*****` keeps its stored value, unless the URL changes with it
 * (docs/webhooks.md#sensitive-parameters).
 * Deliveries already queued keep going to the URL they were queued for: they read it when sent.
 */
export async function updateAddon(
  db: Kysely<Database>,
  by: Principal | null,
  id: number,
  changes: AddonChanges,
  targets: TargetPolicy,
): Promise<Addon> {
  // A new URL is resolved before the integration's row is locked, so that no lookup holds it; a kept one was checked when saved.
  const url = changes.parameters?.url;
  if (typeof url === "string" && url !== MASKED) await assertAllowedTarget(url, targets);
  return inTransaction(db, async (trx) => {
    const before = await lockAddon(trx, id);
    const stored: Record<string, string> = { ...before.parameters, signingSecret: before.signingSecret };
    const sent = changes.parameters;
    if (sent) assertSecretsEnteredForNewUrl(before, sent);
    const merged =
      sent === undefined ? stored : Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, v === MASKED ? (stored[k] ?? v) : v]));
    // A secret is never cleared by leaving it out: a PUT that copies a GET's parameters keeps it.
    const { signingSecret = before.signingSecret, ...parameters } = merged;
    const next: AddonFields = {
      provider: changes.provider ?? before.provider,
      description: changes.description === undefined ? before.description : changes.description,
      enabled: changes.enabled ?? before.enabled,
      parameters,
      events: changes.events ?? before.events,
      projects: changes.projects ?? before.projects,
      environments: changes.environments ?? before.environments,
    };
    assertValidAddon({ ...next, parameters: { ...parameters, signingSecret } });
    const row = await trx
      .updateTable("addons")
      .set({
        provider: next.provider,
        description: next.description ?? null,
        enabled: next.enabled ?? true,
        parameters: JSON.stringify(parameters),
        events: JSON.stringify(unique(next.events)),
        projects: JSON.stringify(unique(next.projects ?? [])),
        environments: JSON.stringify(unique(next.environments ?? [])),
        signing_secret: signingSecret,
      })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const after = addonFromRow(row);
    await appendEvent(trx, by, { type: "addon-config-updated", data: addonView(after), preData: addonView(before) });
    return after;
  });
}

/** Deletes an integration and the deliveries it still had queued; records `addon-config-deleted`. */
export async function deleteAddon(db: Kysely<Database>, by: Principal | null, id: number): Promise<Addon> {
  return inTransaction(db, async (trx) => {
    const before = await lockAddon(trx, id);
    await trx.deleteFrom("addons").where("id", "=", id).execute();
    await appendEvent(trx, by, { type: "addon-config-deleted", data: null, preData: addonView(before) });
    return before;
  });
}

/**
 * A PUT that moves an integration to a new URL must enter its secrets again: a `*****` kept then
 * would send them to the new receiver without whoever changed it ever knowing them. The signing
 * secret is exempt: it never leaves Vexil, only the signatures made with it do.
 */
function assertSecretsEnteredForNewUrl(before: Addon, sent: Record<string, string>): void {
  if (sent.url === undefined || sent.url === MASKED || sent.url === before.parameters.url) return;
  const provider = addonProvider(before.provider);
  const message = "must be entered again when the url changes: a stored secret is not sent to a new address";
  const details = Object.entries(sent)
    .filter(
      ([name, value]) => value === MASKED && name !== "signingSecret" && provider?.parameters.some((p) => p.name === name && p.sensitive),
    )
    .map(([name]) => ({ path: `parameters.${name}`, message }));
  if (details.length > 0) {
    throw new ValidationError(`Invalid integration: ${details.map((d) => `${d.path} ${d.message}`).join("; ")}.`, details);
  }
}

function newSecret(): string {
  return randomBytes(24).toString("base64url");
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
