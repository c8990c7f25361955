import type { Database } from "@vexil/db";
import type { Kysely } from "kysely";
import { type ClientScopeHub, createClientScopeHub, DEFAULT_HISTORY } from "../client-streaming/client-scope-hub.ts";
import { type EvaluationDependencies, evaluationDependencies } from "../frontend-evaluation/evaluation-dependencies.ts";
import { createCompiledEvaluator } from "../compiled-evaluation/compiled-evaluator.ts";
import type { FrontendEvaluator } from "../frontend-evaluation/frontend-evaluator.ts";
import type { ClientFeatureSet } from "./client-feature.ts";
import { loadClientFeatures } from "./load-client-features.ts";
import { type ClientFeaturesQuery, type RenderedClientFeatures, renderClientFeatures } from "./render-client-features.ts";

/** The channel the database notifies, at commit, of every change the client API serves. */
export const FLAG_CHANGES_CHANNEL = "vexil_flag_changes";

/** What one SDK token is served: an environment and its projects (`["*"]` for all). */
export interface ClientScope {
  environment: string;
  projects: string[];
}

/** What the frontend API and OFREP answer from, per snapshot of a scope. */
interface FrontendSnapshot {
  /** What the answers depend on besides the context, found once per snapshot. */
  readonly dependencies: EvaluationDependencies;
  /** The evaluator, built at the snapshot's first evaluation. */
  evaluator(): FrontendEvaluator;
}

/**
 * What SDKs are served, the one read model of the client, delta, streaming and frontend APIs. Fed
 * by the flag-change notifications (invalidate, suspend, resume), whichever instance made the change.
 */
export interface ServedFeatures {
  /** What a scope is served now: a snapshot, kept until a change is heard. */
  features(scope: ClientScope): Promise<ClientFeatureSet>;
  /** The client API's body and ETag for one query, rendered once per snapshot. */
  rendered(scope: ClientScope, query: ClientFeaturesQuery): Promise<RenderedClientFeatures>;
  /** The frontend API's evaluator over a scope's snapshot, built once per snapshot. */
  frontendEvaluator(scope: ClientScope): Promise<FrontendEvaluator>;
  /** A scope's snapshot as the frontend API and OFREP answer from it: its dependencies, and its evaluator when needed. */
  frontend(scope: ClientScope): Promise<FrontendSnapshot>;
  /** A scope's revisions, for delta polls and streams. */
  hub(scope: ClientScope): ClientScopeHub;
  /** Something served changed (on this instance or another): scopes with streams send it now, the others reload when next asked. */
  invalidate(): void;
  /** Changes may go unheard: every read catches up first. */
  suspend(): void;
  /** Heard again: every scope catches up with what it missed (reload and diff), streams get it. */
  resume(): void;
  /** Scopes kept. */
  readonly size: number;
  /** Streams subscribed to any scope (SDK streaming, delta streams), for monitoring. */
  readonly streams: number;
  /** Contexts evaluated since the start (frontend API and OFREP), for monitoring: a 304 from the poll ETag evaluates none. */
  readonly evaluations: number;
}

export interface ServedFeaturesOptions {
  /** Revisions each scope keeps for SDKs that resume. */
  maxHistory?: number;
  /** Scopes without streams kept, least recently used dropped first. */
  maxIdleScopes?: number;
  /** A reload for streams failed (the database is away); the scope stays where it was and tries again at the next change. */
  onError(error: unknown): void;
}

const DEFAULT_IDLE_SCOPES = 256;
// Query strings are the caller's to choose: past this many renderings a snapshot starts over.
const MAX_RENDERINGS = 64;

/** What is computed from one snapshot, and forgotten with it. */
interface Derived {
  rendered: Map<string, RenderedClientFeatures>;
  frontend?: FrontendSnapshot;
}

/**
 * One hub per scope holds its snapshot and its revisions: a scope with streams reloads at every
 * change, one without only when next asked. A read that was under way when a change was heard is
 * followed by another, and while changes cannot be heard every read reloads.
 */
export function createServedFeatures(db: Kysely<Database>, options: ServedFeaturesOptions): ServedFeatures {
  const hubs = new Map<string, { hub: ClientScopeHub; used: number }>();
  const derived = new WeakMap<ClientFeatureSet, Derived>();
  const maxIdle = options.maxIdleScopes ?? DEFAULT_IDLE_SCOPES;
  let suspended = true;
  let evaluations = 0;
  const evaluated = () => {
    evaluations++;
  };

  const refresh = (hub: ClientScopeHub) => {
    if (hub.subscribers > 0) hub.refresh().catch(options.onError);
    else hub.markStale();
  };

  // A token's project list is one array for as long as the token is cached: its key is made once.
  const projectKeys = new WeakMap<readonly string[], { sorted: string[]; key: string }>();
  const projectKey = (projects: readonly string[]) => {
    let found = projectKeys.get(projects);
    if (!found) {
      const sorted = [...new Set(projects)].sort();
      projectKeys.set(projects, (found = { sorted, key: sorted.join("\u0000") }));
    }
    return found;
  };

  // Each access stamps its scope: polls change no map, and only making a new hub looks for the least recently used.
  let clock = 0;
  const evictIdle = () => {
    const idle = [...hubs].filter(([, scope]) => scope.hub.subscribers === 0);
    if (idle.length < maxIdle) return;
    idle.sort(([, a], [, b]) => a.used - b.used);
    for (const [oldKey] of idle.slice(0, idle.length - maxIdle + 1)) hubs.delete(oldKey);
  };

  const hubFor = ({ environment, projects }: ClientScope): ClientScopeHub => {
    const { sorted, key: projectsKey } = projectKey(projects);
    const key = `${environment}\u0000${projectsKey}`;
    let scope = hubs.get(key);
    if (!scope) {
      evictIdle();
      scope = {
        hub: createClientScopeHub(() => loadClientFeatures(db, environment, sorted), options.maxHistory ?? DEFAULT_HISTORY),
        used: 0,
      };
      hubs.set(key, scope);
    }
    scope.used = ++clock;
    if (suspended) scope.hub.markStale();
    return scope.hub;
  };

  const current = (hub: ClientScopeHub): { set: ClientFeatureSet; derived: Derived } => {
    const set = hub.features();
    let found = derived.get(set);
    if (!found) derived.set(set, (found = { rendered: new Map() }));
    return { set, derived: found };
  };

  const frontendOf = ({ set, derived }: { set: ClientFeatureSet; derived: Derived }): FrontendSnapshot => {
    if (!derived.frontend) {
      let evaluator: FrontendEvaluator | undefined;
      derived.frontend = {
        dependencies: evaluationDependencies(set),
        evaluator: () => (evaluator ??= createCompiledEvaluator(set, evaluated)),
      };
    }
    return derived.frontend;
  };

  /** `answer` of the scope's current snapshot; without a promise to wait for when the snapshot is fresh (most SDK polls). */
  const fromSnapshot = <T>(scope: ClientScope, answer: (snapshot: { set: ClientFeatureSet; derived: Derived }) => T): Promise<T> => {
    const hub = hubFor(scope);
    const pending = hub.pending();
    return pending ? pending.then(() => answer(current(hub))) : Promise.resolve(answer(current(hub)));
  };

  return {
    features: (scope) => fromSnapshot(scope, ({ set }) => set),
    rendered: (scope, query) =>
      fromSnapshot(scope, ({ set, derived }) => {
        // An SDK poll narrows nothing: its key is one letter, not a JSON string made per request.
        const narrowed = !!query.projects?.length || !!query.namePrefix;
        const key = narrowed
          ? JSON.stringify([query.projects, query.namePrefix ?? null, query.inlineSegmentConstraints])
          : query.inlineSegmentConstraints
            ? "i"
            : "t";
        let rendered = derived.rendered.get(key);
        if (!rendered) {
          rendered = renderClientFeatures(set, query);
          if (derived.rendered.size >= MAX_RENDERINGS) derived.rendered.clear();
          derived.rendered.set(key, rendered);
        }
        return rendered;
      }),
    frontendEvaluator: (scope) => fromSnapshot(scope, (snapshot) => frontendOf(snapshot).evaluator()),
    frontend: (scope) => fromSnapshot(scope, frontendOf),
    hub: hubFor,
    invalidate() {
      for (const { hub } of hubs.values()) refresh(hub);
    },
    suspend() {
      suspended = true;
      for (const { hub } of hubs.values()) hub.markStale();
    },
    resume() {
      suspended = false;
      for (const { hub } of hubs.values()) refresh(hub);
    },
    get size() {
      return hubs.size;
    },
    get streams() {
      let open = 0;
      for (const { hub } of hubs.values()) open += hub.subscribers;
      return open;
    },
    get evaluations() {
      return evaluations;
    },
  };
}
