import type { ClientFeature, ClientSegment } from "../client-features/client-feature.ts";

/** Everything a scope serves, at one revision: what a new SDK starts from. */
export interface HydrationEvent {
  type: "hydration";
  eventId: number;
  features: ClientFeature[];
  segments: ClientSegment[];
}

/** One change to what a scope serves, as Unleash's delta API and streaming send it (docs/sdk-protocols.md#delta-and-streaming). */
export type ClientDeltaEvent =
  | { type: "feature-updated"; eventId: number; feature: ClientFeature }
  | { type: "feature-removed"; eventId: number; featureName: string; project: string }
  | { type: "segment-updated"; eventId: number; segment: ClientSegment }
  | { type: "segment-removed"; eventId: number; segmentId: number };

/** What an SDK at some revision needs to reach the current one. */
export type ClientDelta =
  | { kind: "unchanged"; revision: number }
  | { kind: "events"; revision: number; events: ClientDeltaEvent[] }
  | { kind: "hydration"; revision: number; hydration: HydrationEvent };
