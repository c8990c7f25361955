import type { Database } from "@vexil/db";
import { type Kysely, sql } from "kysely";
import { Agent, request as undiciRequest } from "undici";
import type { StoredEvent } from "../events/list-events.ts";
import { type Addon, addonFromRow } from "./addon.ts";
import { addonRequest, type AddonRequest } from "./addon-request.ts";
import { assertLiteralTargetAllowed, checkedLookup, TargetNotAllowedError, type TargetPolicy } from "./addon-target.ts";

/** The channel the outbox's trigger notifies at the commit of every write that queued a delivery. */
export const ADDON_DELIVERIES_CHANNEL = "vexil_addon_deliveries";

/** How deliveries are made and retried (docs/webhooks.md#retries); the app reads them from its configuration. */
export interface DeliveryPolicy {
  /** The first retry waits this long, each next one twice as long, up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** A delivery still failing this long after its event is recorded as failed for good. */
  giveUpAfterMs: number;
  /** One attempt's time limit; a claim is held for twice as long, then another worker may take it. */
  timeoutMs: number;
  /** Deliveries one pass claims and sends at once. */
  batchSize: number;
  /** The console's address, for Slack's links. */
  consoleUrl: string;
}

/** What one attempt ended in: a 2xx (delivered), or another status or no answer at all. */
export interface AttemptOutcome {
  provider: string;
  outcome: "delivered" | "retrying" | "failed";
}

/** Sends one request: the app's is createAddonSender's; tests may wrap it. */
export type Send = (request: AddonRequest, timeoutMs: number) => Promise<{ status: number }>;

/**
 * Sends with undici through an agent of its own, which the worker closes when it stops. Unless
 * `allowPrivateTargets`, its sockets refuse internal addresses (docs/webhooks.md#private-addresses).
 */
export function createAddonSender(targets: TargetPolicy): { send: Send; close(): Promise<void> } {
  const agent = new Agent(targets.allowPrivateTargets ? {} : { connect: { lookup: checkedLookup } });
  const send: Send = async (request, timeoutMs) => {
    if (!targets.allowPrivateTargets) assertLiteralTargetAllowed(request.url);
    const signal = AbortSignal.timeout(timeoutMs);
    // Redirects are not followed: undici's request follows none unless told to.
    const response = await undiciRequest(request.url, {
      method: "POST",
      headers: request.headers,
      body: request.body,
      dispatcher: agent,
      signal,
    });
    // Read to the end, so that the connection goes back to the pool, but never kept.
    await response.body.dump().catch(() => undefined);
    return { status: response.statusCode };
  };
  return { send, close: () => agent.close() };
}

interface Claimed {
  id: number;
  addon_id: number;
  event_id: number;
  attempts: number;
  created_at: Date;
}

/**
 * One pass of the outbox worker (docs/webhooks.md#the-outbox): claims up to `batchSize` due
 * deliveries of enabled integrations with FOR UPDATE SKIP LOCKED (so that each is claimed by one
 * instance) and pushes their next attempt past a lease (so that a crashed instance's claims come
 * back), sends them outside any transaction, and records each outcome. Answers what it did; a
 * full batch means more may be due at once.
 */
export async function deliverAddonEvents(db: Kysely<Database>, policy: DeliveryPolicy, send: Send): Promise<AttemptOutcome[]> {
  const leaseMs = policy.timeoutMs * 2;
  const claimed = (
    await sql<Claimed>`
      update addon_deliveries set attempts = attempts + 1, next_attempt_at = now() + ${leaseMs}::double precision * interval '1 millisecond'
      where id in (
        select d.id from addon_deliveries d join addons a on a.id = d.addon_id and a.enabled
        where d.state = 'pending' and d.next_attempt_at <= now()
        order by d.next_attempt_at, d.id
        limit ${policy.batchSize}
        for update of d skip locked
      )
      returning id, addon_id, event_id, attempts, created_at`.execute(db)
  ).rows;
  if (claimed.length === 0) return [];

  const [addonRows, eventRows] = await Promise.all([
    db
      .selectFrom("addons")
      .selectAll()
      .where("id", "in", [...new Set(claimed.map((c) => c.addon_id))])
      .execute(),
    db
      .selectFrom("events")
      .selectAll()
      .where(
        "id",
        "in",
        claimed.map((c) => c.event_id),
      )
      .execute(),
  ]);
  const addons = new Map(addonRows.map((row) => [row.id, addonFromRow(row)]));
  const events = new Map(
    eventRows.map((row): [number, StoredEvent] => [
      row.id,
      {
        id: row.id,
        type: row.type,
        createdBy: row.created_by,
        createdAt: row.created_at,
        project: row.project,
        environment: row.environment,
        featureName: row.feature_name,
        data: row.data,
        preData: row.pre_data,
      },
    ]),
  );
  return Promise.all(
    claimed.map(async (delivery) => {
      const addon = addons.get(delivery.addon_id);
      const event = events.get(delivery.event_id);
      // Deleted since the claim: its cascade removed the row too.
      if (!addon || !event) return { provider: addon?.provider ?? "unknown", outcome: "failed" as const };
      return attempt(db, policy, send, delivery, addon, event);
    }),
  );
}

async function attempt(
  db: Kysely<Database>,
  policy: DeliveryPolicy,
  send: Send,
  delivery: Claimed,
  addon: Addon,
  event: StoredEvent,
): Promise<AttemptOutcome> {
  let status: number | null = null;
  let error: string | null = null;
  let refused = false;
  try {
    status = (await send(addonRequest(addon, event, policy.consoleUrl), policy.timeoutMs)).status;
    if (status < 200 || status > 299) error = `The receiver answered ${status}.`;
  } catch (cause) {
    // A refused target breaks the rule itself: retrying would not change it.
    refused = causes(cause).some((e) => e instanceof TargetNotAllowedError);
    error = refused ? new TargetNotAllowedError().message : describeFailure(cause);
  }
  const mine = db.updateTable("addon_deliveries").where("id", "=", delivery.id).where("state", "=", "pending");
  if (error === null) {
    await mine.set({ state: "delivered", finished_at: sql<Date>`now()`, last_status: status, last_error: null }).execute();
    return { provider: addon.provider, outcome: "delivered" };
  }
  const delayMs = Math.min(policy.retryBaseMs * 2 ** (delivery.attempts - 1), policy.retryMaxMs);
  const givingUp = refused || Date.now() - delivery.created_at.getTime() >= policy.giveUpAfterMs;
  if (givingUp) {
    await mine.set({ state: "failed", finished_at: sql<Date>`now()`, last_status: status, last_error: error }).execute();
  } else {
    const next = sql<Date>`now() + ${delayMs}::double precision * interval '1 millisecond'`;
    await mine.set({ next_attempt_at: next, last_status: status, last_error: error }).execute();
  }
  return { provider: addon.provider, outcome: givingUp ? "failed" : "retrying" };
}

/**
 * What the deliveries show of an attempt that got no answer: a sentence, never the error's text,
 * which names addresses and ports of the network the receiver is in (docs/security.md).
 */
function describeFailure(cause: unknown): string {
  return causes(cause).some((e) => e.name === "TimeoutError")
    ? "The receiver did not answer in time."
    : "The receiver could not be reached.";
}

function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let e = error; e instanceof Error && chain.length < 10; e = e.cause) chain.push(e);
  return chain;
}
