import type { Logger } from "@vexil/api";
import type { DatabaseConnection } from "@vexil/db";
import { ADDON_DELIVERIES_CHANNEL, type AttemptOutcome, createAddonSender, type DeliveryPolicy, deliverAddonEvents } from "@vexil/services";
import type { Config } from "./config.ts";

export interface AddonDelivery {
  /** Runs passes until nothing is due; resolves when the current run ends. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

const BATCH_SIZE = 50;

/**
 * The outbox worker (docs/webhooks.md#the-outbox), wired as the change-request scheduler is: every
 * instance runs it, woken by the outbox trigger's NOTIFY at the commit of each write that queued
 * a delivery and every `WEBHOOK_POLL_INTERVAL_MS` for retries that fell due; the claims' row locks
 * give each delivery to one instance. It never runs inside a request, so a delivery never slows a write.
 */
export function startAddonDelivery(
  db: DatabaseConnection,
  config: Config,
  log: Logger,
  onOutcome: (outcome: AttemptOutcome) => void,
): AddonDelivery {
  const intervalMs = config.WEBHOOK_POLL_INTERVAL_MS;
  const policy: DeliveryPolicy = {
    retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
    retryMaxMs: config.WEBHOOK_RETRY_MAX_MS,
    giveUpAfterMs: config.WEBHOOK_GIVE_UP_AFTER_MS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    batchSize: BATCH_SIZE,
    consoleUrl: config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`,
  };
  const sender = createAddonSender({ allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS });
  let stopped = intervalMs === 0;
  let again = false;
  let running: Promise<void> | undefined;

  const drain = async () => {
    for (;;) {
      const outcomes = await deliverAddonEvents(db.kysely, policy, sender.send);
      for (const outcome of outcomes) onOutcome(outcome);
      const failed = outcomes.filter((o) => o.outcome !== "delivered").length;
      if (failed) log.warn({ failed, delivered: outcomes.length - failed }, "integration deliveries failed; retried later unless given up");
      if (outcomes.length < BATCH_SIZE || stopped) return;
    }
  };
  // A wake-up during a run makes the run go round once more, so no NOTIFY is missed.
  const tick = (): Promise<void> => {
    if (stopped) return running ?? Promise.resolve();
    again = true;
    running ??= (async () => {
      while (again && !stopped) {
        again = false;
        await drain().catch((error) => log.warn({ err: error }, "delivering integration events failed; will retry"));
      }
    })().finally(() => {
      running = undefined;
      if (again && !stopped) void tick();
    });
    return running;
  };

  const timer = stopped ? undefined : setInterval(tick, intervalMs);
  timer?.unref();
  const listener = stopped
    ? undefined
    : db.listen(ADDON_DELIVERIES_CHANNEL, {
        onMessage: () => void tick(),
        // Listening (again): whatever was queued meanwhile is looked for now.
        onListening: () => void tick(),
        onLost: () => {},
      });
  return {
    tick,
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      await listener?.close();
      await running;
      await sender.close();
    },
  };
}
