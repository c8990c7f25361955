import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import type { ClientFeatureSet } from "./client-feature.ts";
import { loadClientFeatures } from "./load-client-features.ts";
import { type ClientFeaturesQuery, type RenderedClientFeatures, renderClientFeatures } from "./render-client-features.ts";

/** The channel the database notifies, at commit, of every change the client API serves. */
export const FLAG_CHANGES_CHANNEL = "vexil_flag_changes";

export interface ClientFeatureSnapshots {
  /** What the environment serves to these projects (`["*"]` for all). */
  features(environment: string, projects: string[]): Promise<ClientFeatureSet>;
  /** The rendered response for one query, computed once per snapshot. */
  rendered(environment: string, projects: string[], query: ClientFeaturesQuery): Promise<RenderedClientFeatures>;
  /** Something served changed (on this instance or another): forget every snapshot. */
  invalidate(): void;
  /** Changes may go unheard: serve fresh reads until resume(). */
  suspend(): void;
  resume(): void;
}

interface Entry {
  set: Promise<ClientFeatureSet>;
  rendered: Map<string, RenderedClientFeatures>;
}

// Query strings are the caller's to choose: past this many renderings a snapshot starts over.
const MAX_RENDERINGS = 64;

/**
 * Snapshots per environment and project set, so that SDK polls cost no query. A snapshot is
 * dropped as soon as a change is heard; a read that was under way when it was heard still
 * answers its own callers but is not kept. While changes cannot be heard, nothing is kept.
 */
export function createClientFeatureSnapshots(db: Kysely<Database>): ClientFeatureSnapshots {
  const entries = new Map<string, Entry>();
  let suspended = true;

  const entryFor = (environment: string, projects: string[]): Entry => {
    const key = `${environment}\u0000${[...projects].sort().join("\u0000")}`;
    const cached = entries.get(key);
    if (cached) return cached;
    const entry: Entry = { set: loadClientFeatures(db, environment, projects), rendered: new Map() };
    if (suspended) return entry;
    entries.set(key, entry);
    entry.set.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    return entry;
  };

  return {
    features: (environment, projects) => entryFor(environment, projects).set,
    async rendered(environment, projects, query) {
      const entry = entryFor(environment, projects);
      const set = await entry.set;
      const key = JSON.stringify([query.projects ?? null, query.namePrefix ?? null, query.inlineSegmentConstraints]);
      let rendered = entry.rendered.get(key);
      if (!rendered) {
        rendered = renderClientFeatures(set, query);
        if (entry.rendered.size >= MAX_RENDERINGS) entry.rendered.clear();
        entry.rendered.set(key, rendered);
      }
      return rendered;
    },
    invalidate: () => entries.clear(),
    suspend() {
      suspended = true;
      entries.clear();
    },
    resume() {
      suspended = false;
      entries.clear();
    },
  };
}
