import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { type ApiDeps, createClientStreams, type Logger } from "@vexil/api";
import { createAuthCache, type DatabaseConnection } from "@vexil/db";
import { createPasswordHasher } from "@vexil/password-hasher";
import {
  CONSOLE_EVENTS_CHANNEL,
  createClientMetricsBuffer,
  createConsoleEventHub,
  createOidcClient,
  createServedFeatures,
  DEFAULT_LOGIN_LIMITS,
  DEFAULT_SESSION_POLICY,
  FLAG_CHANGES_CHANNEL,
  type Principal,
} from "@vexil/services";
import type { Config } from "./config.ts";
import { oidcSettings } from "./oidc-settings.ts";

export interface WiredDeps {
  deps: ApiDeps;
  /** Shutdown begins: streams end (their SDKs reconnect, to another instance) and lost connections are no longer worth a warning. */
  beginClosing(): void;
  /** Closes what the deps hold open (the listening connections, the password workers); the database is the caller's. */
  close(): Promise<void>;
}

/** The long-lived things every request shares, from the configuration, each fed from where its data changes. */
export function createApiDeps(config: Config, db: DatabaseConnection, log: Logger): WiredDeps {
  let closing = false;
  let sessionSecret = config.SESSION_SECRET;
  if (!sessionSecret) {
    sessionSecret = randomBytes(32).toString("base64url");
    log.warn(
      {},
      "SESSION_SECRET is not set: using a random one, so sessions end when this process does and other instances cannot read them",
    );
  }
  const sessions = { ...DEFAULT_SESSION_POLICY, idleMs: config.SESSION_IDLE_TIMEOUT_MS };
  const hasher = createPasswordHasher({
    // One core stays with the event loop, so a login storm cannot starve the rest of the API.
    workers: config.PASSWORD_WORKERS ?? Math.max(1, availableParallelism() - 1),
    cost: config.BCRYPT_COST,
  });
  const clientStreams = createClientStreams({
    maxConnections: config.STREAMING_MAX_CONNECTIONS,
    heartbeatMs: config.STREAMING_HEARTBEAT_MS,
  });
  const principals = createAuthCache<Principal>(db, {
    ttlMs: config.AUTH_CACHE_TTL_MS,
    // A stream outlives the request that checked its credential: a revoked one ends it, on every instance.
    onChange: (tag) => clientStreams.revoke(tag),
    onLost: (error) => {
      if (!closing)
        log.warn({ err: error }, "lost the database connection that hears auth changes; caching no credentials until it is back");
    },
  });
  // What SDKs are served, per token scope: kept until a change is heard from any instance; scopes with streams send it at once.
  const servedFeatures = createServedFeatures(db.kysely, {
    maxHistory: config.STREAMING_HISTORY,
    onError: (error) => log.warn({ err: error }, "could not read what SDKs are served; streams catch up at the next change"),
  });
  const flagChanges = db.listen(FLAG_CHANGES_CHANNEL, {
    onMessage: () => servedFeatures.invalidate(),
    // Also after a lost connection: each scope reloads, and its streams are sent what they missed.
    onListening: () => servedFeatures.resume(),
    onLost: (error) => {
      servedFeatures.suspend();
      if (!closing)
        log.warn({ err: error }, "lost the database connection that hears flag changes; serving SDKs fresh reads until it is back");
    },
  });
  // What open consoles are told: each write's notice, from any instance (docs/console-live.md#across-instances).
  const consoleEvents = createConsoleEventHub();
  const consoleChanges = db.listen(CONSOLE_EVENTS_CHANNEL, {
    onMessage: (payload) => consoleEvents.heard(payload),
    onListening: () => consoleEvents.resume(),
    onLost: (error) => {
      consoleEvents.suspend();
      if (!closing)
        log.warn({ err: error }, "lost the database connection that hears changes for open consoles; they catch up when it is back");
    },
  });

  const oidc = oidcSettings(config);
  const deps: ApiDeps = {
    db: db.kysely,
    log,
    hasher,
    cookies: { secret: sessionSecret, secure: config.SECURE_COOKIES, maxAgeSeconds: sessions.absoluteMs / 1000 },
    loginPolicy: { sessions, limits: DEFAULT_LOGIN_LIMITS, passwordLogin: config.PASSWORD_LOGIN },
    principals,
    servedFeatures,
    clientStreams,
    consoleEvents,
    clientMetrics: createClientMetricsBuffer(),
    oidc: oidc ? { settings: oidc, client: createOidcClient(oidc) } : null,
    addonTargets: { allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS },
  };
  return {
    deps,
    beginClosing() {
      closing = true;
      clientStreams.close();
    },
    async close() {
      closing = true;
      await principals.close();
      await flagChanges.close();
      await consoleChanges.close();
      await hasher.close();
    },
  };
}
