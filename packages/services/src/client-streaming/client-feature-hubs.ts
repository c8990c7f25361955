import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { loadClientFeatures } from "../client-features/load-client-features.ts";
import { type ClientFeatureHub, createClientFeatureHub, DEFAULT_HISTORY } from "./client-feature-hub.ts";

export interface ClientFeatureHubs {
  /** The hub of an environment and a set of projects (`["*"]` for all), made on first use. */
  hubFor(environment: string, projects: string[]): ClientFeatureHub;
  /** Something served changed (on this instance or another): hubs with streams send it now. */
  changed(): void;
  /** Changes may go unheard: every read catches up first. */
  suspend(): void;
  /** Heard again: every hub catches up with what it missed (rebuild and diff), streams get it. */
  resume(): void;
  readonly size: number;
}

export interface ClientFeatureHubsOptions {
  /** Revisions each hub keeps for SDKs that resume. */
  maxHistory?: number;
  /** Hubs without streams kept for delta polls, least recently used dropped first. */
  maxIdleHubs?: number;
  /** A reload failed (the database is away); the hub stays where it was and tries again at the next change. */
  onError(error: unknown): void;
}

const DEFAULT_IDLE_HUBS = 64;

/**
 * One hub per environment and project set, fed by the flag-change notifications. A hub with
 * streams reloads at every change; one without (kept for delta polls) only when next asked.
 */
export function createClientFeatureHubs(db: Kysely<Database>, options: ClientFeatureHubsOptions): ClientFeatureHubs {
  const hubs = new Map<string, ClientFeatureHub>();
  const maxIdle = options.maxIdleHubs ?? DEFAULT_IDLE_HUBS;
  let suspended = true;

  const refresh = (hub: ClientFeatureHub) => {
    if (hub.subscribers > 0) hub.refresh().catch(options.onError);
    else hub.markStale();
  };

  return {
    hubFor(environment, projects) {
      const sorted = [...new Set(projects)].sort();
      const key = `${environment}\u0000${sorted.join("\u0000")}`;
      let hub = hubs.get(key);
      if (hub) {
        // Most recently used last.
        hubs.delete(key);
      } else {
        hub = createClientFeatureHub(() => loadClientFeatures(db, environment, sorted), options.maxHistory ?? DEFAULT_HISTORY);
        const idle = [...hubs].filter(([, h]) => h.subscribers === 0);
        for (const [oldKey] of idle.slice(0, Math.max(0, idle.length - maxIdle + 1))) hubs.delete(oldKey);
      }
      hubs.set(key, hub);
      if (suspended) hub.markStale();
      return hub;
    },
    changed() {
      for (const hub of hubs.values()) refresh(hub);
    },
    suspend() {
      suspended = true;
      for (const hub of hubs.values()) hub.markStale();
    },
    resume() {
      suspended = false;
      for (const hub of hubs.values()) refresh(hub);
    },
    get size() {
      return hubs.size;
    },
  };
}
