import { z } from "zod";
import { clientFeatureSchema } from "./client-feature.ts";
import { constraintSchema } from "./strategy.ts";

const clientSegmentSchema = z
  .object({ id: z.int(), name: z.string(), constraints: z.array(constraintSchema) })
  .meta({ id: "ClientSegment" });

const eventId = z.int().meta({ description: "The revision this event leads to" });

/** The events of `GET /api/client/delta` and of the streaming route's `unleash-*` events (client specification 19, 20). */
const clientDeltaEventSchema = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("hydration"), eventId, features: z.array(clientFeatureSchema), segments: z.array(clientSegmentSchema) }),
    z.object({ type: z.literal("feature-updated"), eventId, feature: clientFeatureSchema }),
    z.object({ type: z.literal("feature-removed"), eventId, featureName: z.string(), project: z.string() }),
    z.object({ type: z.literal("segment-updated"), eventId, segment: clientSegmentSchema }),
    z.object({ type: z.literal("segment-removed"), eventId, segmentId: z.int() }),
  ])
  .meta({ id: "ClientDeltaEvent" });

export const clientDeltaSchema = z.object({ events: z.array(clientDeltaEventSchema) }).meta({ id: "ClientDelta" });
