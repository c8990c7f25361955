import type { Server } from "node:http";
import type { ApiDeps, Logger } from "@vexil/api";
import type { DatabaseConnection } from "@vexil/db";
import { storeClientMetrics } from "@vexil/services";
import { type AddonDelivery, startAddonDelivery } from "./addon-delivery.ts";
import { createApiDeps } from "./api-deps.ts";
import { startChangeRequestScheduler } from "./change-request-scheduler.ts";
import type { Config } from "./config.ts";
import { startHousekeeping } from "./housekeeping.ts";
import { createHttpServer } from "./http-server.ts";
import { createServerMetrics } from "./metrics/server-metrics.ts";
import { type PeriodicTask, startPeriodicTask } from "./periodic-task.ts";
import { createRequestHandler } from "./request-handler.ts";

export interface App {
  server: Server;
  deps: ApiDeps;
  scheduler: PeriodicTask;
  /** Delivers the integrations' outbox (docs/webhooks.md#the-outbox). */
  addonDelivery: AddonDelivery;
  housekeeping: PeriodicTask;
  /** Stores the SDK metrics summed since the last pass. */
  metricsFlush: PeriodicTask;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes the database. */
  close(): Promise<void>;
}

export interface AppOptions {
  config: Config;
  db: DatabaseConnection;
  log: Logger;
  version?: string;
}

/** Wires the server: configuration, then the deps every request shares, then the request handler and the background tasks. */
export function createApp({ config, db, log, version = "0.1.0" }: AppOptions): App {
  const wired = createApiDeps(config, db, log);
  const { deps } = wired;
  const metrics = createServerMetrics(deps, db);
  const server = createHttpServer(createRequestHandler({ config, deps, log, metrics, version }), config, log);
  const scheduler = startChangeRequestScheduler(db.kysely, log, config.SCHEDULER_INTERVAL_MS);
  const addonDelivery = startAddonDelivery(db, config, log, (outcome) => metrics.countDelivery(outcome));
  const housekeeping = startHousekeeping(
    db.kysely,
    log,
    { sessions: deps.loginPolicy.sessions, metricsRetentionDays: config.METRICS_RETENTION_DAYS },
    config.HOUSEKEEPING_INTERVAL_MS,
  );
  const metricsFlush = startPeriodicTask(log, "storing SDK metrics", config.METRICS_FLUSH_INTERVAL_MS, async () => {
    const drained = deps.clientMetrics.drain();
    try {
      await storeClientMetrics(db.kysely, drained);
    } catch (error) {
      // Put back, so that a database outage delays the counts instead of losing them.
      for (const counts of drained) deps.clientMetrics.restore(counts);
      throw error;
    }
  });

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Streams never go idle by themselves: ended now, their SDKs reconnect (to another instance).
      wired.beginClosing();
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_GRACE_MS);
      // Keep-alive connections become idle as their last response ends; close them as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      try {
        await closed;
      } finally {
        clearTimeout(force);
        clearInterval(sweep);
      }
      await scheduler.stop();
      await addonDelivery.stop();
      await metricsFlush.stop();
      await metricsFlush.tick();
      await housekeeping.stop();
      await wired.close();
      await db.close();
    })();
    return closing;
  };

  return { server, deps, scheduler, addonDelivery, housekeeping, metricsFlush, close };
}
