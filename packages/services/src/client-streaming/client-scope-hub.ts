import type { ClientFeatureSet } from "../client-features/client-feature.ts";
import type { ClientDelta, ClientDeltaEvent, HydrationEvent } from "./client-delta-event.ts";
import { diffClientFeatures, type FingerprintedSet, fingerprinted } from "./diff-client-features.ts";

/** A change as streams receive it: the new revision and the events that lead there. */
export interface ClientFeatureUpdate {
  revision: number;
  events: ClientDeltaEvent[];
}

export interface ClientScopeHub {
  /** Loaded, and caught up with every change heard before the call. */
  ready(): Promise<void>;
  /** What ready() waits for, or undefined when there is nothing to wait for (a poll's usual case, answered without a promise). */
  pending(): Promise<void> | undefined;
  /** The revision of the state last sent (after ready()). */
  readonly revision: number;
  /** The set served at the current revision (after ready()). */
  features(): ClientFeatureSet;
  /** Everything served at the current revision, as the event a new SDK starts from. */
  hydration(): HydrationEvent;
  /** What an SDK at `revision` needs: nothing, the events since (while they are kept), or everything. */
  deltaSince(revision: number | undefined): ClientDelta;
  /** Calls `listener` with every later change, synchronously after the state moved on. */
  subscribe(listener: (update: ClientFeatureUpdate) => void): () => void;
  readonly subscribers: number;
  /** Reloads the set, and sends what differs from the last one as a new revision. */
  refresh(): Promise<void>;
  /** The state may be behind: the next ready() reloads. */
  markStale(): void;
}

/** The last `maxHistory` revisions are kept, so an SDK that was that close resumes without a hydration. */
export const DEFAULT_HISTORY = 100;

/** The last event per feature or segment, in the order of those last events. */
function compact(events: ClientDeltaEvent[]): ClientDeltaEvent[] {
  const seen = new Set<string>();
  const kept: ClientDeltaEvent[] = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as ClientDeltaEvent;
    const key =
      event.type === "feature-updated"
        ? `f:${event.feature.name}`
        : event.type === "feature-removed"
          ? `f:${event.featureName}`
          : event.type === "segment-updated"
            ? `s:${event.segment.id}`
            : `s:${event.segmentId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(event);
  }
  return kept.reverse();
}

/**
 * What one scope (an environment and a set of projects) is served, as a sequence of revisions: it holds the state
 * last sent and, on each refresh, reloads the set, diffs it per feature and segment, gives the
 * difference a new revision (the event-log id when the set was read, so instances that read the
 * same state agree on it), keeps it in a bounded history and hands it to its subscribers.
 */
export function createClientScopeHub(load: () => Promise<ClientFeatureSet>, maxHistory = DEFAULT_HISTORY): ClientScopeHub {
  let current: FingerprintedSet | undefined;
  let revision = 0;
  // The oldest revision an SDK can resume from, and the changes since, oldest first.
  let baseRevision = 0;
  const history: ClientFeatureUpdate[] = [];
  let hydration: HydrationEvent | undefined;
  let stale = true;
  const listeners = new Set<(update: ClientFeatureUpdate) => void>();
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;

  const apply = (set: ClientFeatureSet) => {
    const next = fingerprinted(set);
    if (!current) {
      current = next;
      revision = baseRevision = set.revisionId;
      return;
    }
    // A commit with a lower event id can land after one with a higher id (or a change come without
    // an event): revisions still only grow, but then this instance's number for the state is its
    // own, and an SDK that resumes with it on another instance may miss that one change until the
    // feature changes again or it hydrates. Writes through the API append an event, so this needs
    // two writes committing out of order and a reconnect to another instance in between.
    const nextRevision = Math.max(set.revisionId, revision + 1);
    const events = diffClientFeatures(current, next, nextRevision);
    current = next;
    if (events.length === 0) return;
    revision = nextRevision;
    hydration = undefined;
    const update = { revision, events };
    history.push(update);
    while (history.length > maxHistory) baseRevision = (history.shift() as ClientFeatureUpdate).revision;
    for (const listener of listeners) listener(update);
  };

  const loadOnce = async () => {
    // Cleared first: a change heard while this read runs marks it stale again.
    stale = false;
    try {
      apply(await load());
    } catch (error) {
      stale = true;
      throw error;
    }
  };

  const refresh = (): Promise<void> => {
    if (!running) {
      running = loadOnce().finally(() => {
        running = undefined;
      });
      return running;
    }
    // A change heard during a read may not be in it: one more read after it, shared by all who ask.
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = undefined;
        return refresh();
      });
    return queued;
  };

  const hydrationEvent = (): HydrationEvent => {
    const set = (current as FingerprintedSet).set;
    hydration ??= { type: "hydration", eventId: revision, features: set.features, segments: set.segments };
    return hydration;
  };

  return {
    // A reload under way (or queued behind one) was asked for by a change heard before this call: waiting for it is a fresh read.
    ready: () => (stale || !current ? refresh() : (queued ?? running ?? Promise.resolve())),
    pending: () => (stale || !current ? refresh() : (queued ?? running)),
    get revision() {
      return revision;
    },
    features: () => (current as FingerprintedSet).set,
    hydration: hydrationEvent,
    deltaSince(since) {
      if (since !== undefined && since >= revision) return { kind: "unchanged", revision };
      const from = since === undefined ? -1 : since === baseRevision ? 0 : history.findIndex((h) => h.revision === since) + 1;
      if (from <= 0 && since !== baseRevision) return { kind: "hydration", revision, hydration: hydrationEvent() };
      return { kind: "events", revision, events: compact(history.slice(from).flatMap((h) => h.events)) };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get subscribers() {
      return listeners.size;
    },
    refresh,
    markStale() {
      stale = true;
    },
  };
}
