import { ADDON_PROVIDER_NAMES } from "@vexil/services";
import { z } from "zod";
import { eventSchema } from "./event.ts";
import { recordIdSchema, wholeNumberSchema } from "./record-id.ts";

export const addonIdSchema = recordIdSchema("Integration id");

const names = (description: string) => z.array(z.string().min(1).max(100)).max(100).meta({ description });

/** The fields a client writes (Unleash's addonCreateUpdateSchema); a PUT may leave any out. */
export const addonFieldsShape = {
  provider: z.string().min(1).max(100).meta({ description: 'The provider: "webhook" or "slack"', example: "webhook" }),
  description: z.string().max(1000).nullable().optional().meta({ description: "What the integration is for" }),
  enabled: z.boolean().optional().meta({ description: "Whether events are delivered (default true)" }),
  parameters: z
    .record(z.string().min(1).max(100), z.string())
    .refine((p) => Object.keys(p).length <= 20, "must have at most 20 parameters")
    .meta({ description: "The provider's parameters, each a string (see `providers`)", example: { url: "https://ci.example.com/hook" } }),
  events: z
    .array(z.string().min(1).max(100))
    .max(100)
    .meta({ description: "The event types delivered", example: ["feature-created"] }),
  projects: names("Only events of these projects; empty means all").optional(),
  environments: names("Only events of these environments (and those of none); empty means all").optional(),
};

export const addonSchema = z
  .object({
    id: z.int().min(1),
    provider: z.enum(ADDON_PROVIDER_NAMES),
    description: z.string().nullable(),
    enabled: z.boolean(),
    parameters: z.record(z.string(), z.string()).meta({ description: "Sensitive parameters show as *****" }),
    events: z.array(z.string()),
    projects: z.array(z.string()),
    environments: z.array(z.string()),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Addon" });

const providerSchema = z
  .object({
    name: z.string(),
    displayName: z.string(),
    description: z.string(),
    documentationUrl: z.string(),
    parameters: z.array(
      z.object({
        name: z.string(),
        displayName: z.string(),
        type: z.string(),
        description: z.string(),
        placeholder: z.string().optional(),
        required: z.boolean(),
        sensitive: z.boolean(),
      }),
    ),
    events: z.array(z.string()),
  })
  .meta({ id: "AddonProvider" });

export const addonsSchema = z.object({ addons: z.array(addonSchema), providers: z.array(providerSchema) }).meta({ id: "Addons" });

export const integrationEventSchema = z
  .object({
    id: z.int(),
    integrationId: z.int(),
    createdAt: z.iso.datetime(),
    state: z.enum(["pending", "delivered", "failed"]).meta({
      description: "pending: not delivered yet (being retried); delivered: the receiver answered 2xx; failed: given up after 24 h",
    }),
    attempts: z.int(),
    nextAttemptAt: z.iso.datetime().nullable(),
    finishedAt: z.iso.datetime().nullable(),
    lastStatus: z.int().nullable().meta({ description: "The receiver's last HTTP status, null when it gave none" }),
    lastError: z.string().nullable(),
    event: eventSchema,
  })
  .meta({ id: "IntegrationEvent" });

/** GET /api/admin/addons/:id/events' query, as Unleash pages it. */
export const integrationEventsPageShape = {
  limit: wholeNumberSchema("How many deliveries, newest first (default 50)", 1, 100).optional(),
  offset: wholeNumberSchema("How many of the newest to skip", 0, 1_000_000).optional(),
};
