import type { ClientFeature, ClientFeatureSet, ClientSegment } from "../client-features/client-feature.ts";
import type { ClientDeltaEvent } from "./client-delta-event.ts";

/** A feature set with each part's JSON, so that a change is told by comparing strings. */
export interface FingerprintedSet {
  set: ClientFeatureSet;
  features: Map<string, { json: string; feature: ClientFeature }>;
  segments: Map<number, { json: string; segment: ClientSegment }>;
}

export function fingerprinted(set: ClientFeatureSet): FingerprintedSet {
  return {
    set,
    features: new Map(set.features.map((feature) => [feature.name, { json: JSON.stringify(feature), feature }])),
    segments: new Map(set.segments.map((segment) => [segment.id, { json: JSON.stringify(segment), segment }])),
  };
}

/**
 * The events that turn `before` into `next`, all with `eventId`: segments first (so that a feature
 * never names a segment the SDK does not have yet), then features by name, then removals.
 */
export function diffClientFeatures(before: FingerprintedSet, next: FingerprintedSet, eventId: number): ClientDeltaEvent[] {
  const events: ClientDeltaEvent[] = [];
  for (const [id, { json, segment }] of next.segments) {
    if (before.segments.get(id)?.json !== json) events.push({ type: "segment-updated", eventId, segment });
  }
  for (const [name, { json, feature }] of next.features) {
    if (before.features.get(name)?.json !== json) events.push({ type: "feature-updated", eventId, feature });
  }
  for (const [name, { feature }] of before.features) {
    if (!next.features.has(name)) events.push({ type: "feature-removed", eventId, featureName: name, project: feature.project });
  }
  for (const id of before.segments.keys()) {
    if (!next.segments.has(id)) events.push({ type: "segment-removed", eventId, segmentId: id });
  }
  return events;
}
