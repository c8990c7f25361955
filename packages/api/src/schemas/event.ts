import { z } from "zod";
import { wholeNumberSchema } from "./record-id.ts";

export const eventSchema = z
  .object({
    id: z.number().int(),
    type: z.string(),
    createdBy: z.string(),
    createdAt: z.iso.datetime(),
    project: z.string().nullable(),
    environment: z.string().nullable(),
    featureName: z.string().nullable(),
    data: z.unknown().optional(),
    preData: z.unknown().optional(),
  })
  .meta({ id: "Event" });

const EVENT_PAGE_MAX = 1000;

export const eventPageSchema = z
  .object({
    limit: wholeNumberSchema("How many events, newest first (default 100)", 1, EVENT_PAGE_MAX).optional(),
    before: wholeNumberSchema("Only events older than this event id (the next page)", 1, Number.MAX_SAFE_INTEGER).optional(),
  })
  .optional();
