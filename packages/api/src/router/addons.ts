import {
  ADDON_PROVIDERS,
  addonView,
  createAddon,
  deleteAddon,
  getAddon,
  listAddonDeliveries,
  listAddons,
  updateAddon,
} from "@vexil/services";
import { z } from "zod";
import {
  addonFieldsShape,
  addonIdSchema,
  addonSchema,
  addonsSchema,
  integrationEventSchema,
  integrationEventsPageShape,
} from "../schemas/addon.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Addons"];

// Unleash's addon API (docs/webhooks.md#the-api): reads and writes are the admins', since an
// integration's parameters say where every change goes.
export const addonsRouter = {
  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/addons", tags, summary: "List integrations and the providers they may use" },
      access: "ADMIN",
    })
    .input(z.object({}).optional())
    .output(addonsSchema)
    .query(async ({ ctx }) => ({
      addons: (await listAddons(ctx.db)).map((addon) => toJson(addonView(addon))),
      providers: ADDON_PROVIDERS.map((p) => ({ ...p, events: [...p.events] })),
    })),

  create: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/addons",
        tags,
        summary: "Create an integration",
        description:
          "Sensitive parameters are answered as `*****`; the signing secret, when `parameters.signingSecret` is left out and one is made up, is shown in this answer, the only time it is.",
        responseHeaders: z.object({ location: z.string().meta({ description: "Path of the new integration" }) }),
      },
      access: "ADMIN",
      successStatus: 201,
    })
    .input(z.strictObject(addonFieldsShape))
    .output(addonSchema)
    .mutation(async ({ ctx, input }) => {
      const addon = await createAddon(ctx.db, ctx.principal, input, ctx.deps.addonTargets);
      ctx.setHeader("location", `/api/admin/addons/${addon.id}`);
      return toJson(addonView(addon, input.parameters.signingSecret === undefined));
    }),

  get: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/addons/{id}", tags, summary: "Read an integration" },
      access: "ADMIN",
    })
    .input(z.strictObject({ id: addonIdSchema }))
    .output(addonSchema)
    .query(async ({ ctx, input }) => toJson(addonView(await getAddon(ctx.db, input.id)))),

  update: protectedProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: "/api/admin/addons/{id}",
        tags,
        summary: "Change an integration",
        description:
          "A field left out keeps its value; a null description clears it. `parameters`, when sent, replaces them all, except that a sensitive one sent as `*****` keeps its stored value (a 400 when the `url` changes with it: a secret is entered again for a new address) and a left-out `signingSecret` is kept. The answer masks sensitive parameters.",
      },
      access: "ADMIN",
    })
    .input(
      z.strictObject({
        ...addonFieldsShape,
        provider: addonFieldsShape.provider.optional(),
        parameters: addonFieldsShape.parameters.optional(),
        events: addonFieldsShape.events.optional(),
        id: addonIdSchema,
      }),
    )
    .output(addonSchema)
    .mutation(async ({ ctx, input: { id, ...changes } }) =>
      toJson(addonView(await updateAddon(ctx.db, ctx.principal, id, changes, ctx.deps.addonTargets))),
    ),

  delete: protectedProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/api/admin/addons/{id}",
        tags,
        summary: "Delete an integration",
        description: "Its queued deliveries go with it. Answers 200 with the integration as it was.",
      },
      access: "ADMIN",
    })
    .input(z.strictObject({ id: addonIdSchema }))
    .output(addonSchema)
    .mutation(async ({ ctx, input }) => toJson(addonView(await deleteAddon(ctx.db, ctx.principal, input.id)))),

  events: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/addons/{id}/events",
        tags,
        summary: "An integration's deliveries, newest first",
        description: "Each event the integration was sent, or is being sent, with its state, attempts and the receiver's last answer.",
      },
      access: "ADMIN",
    })
    .input(z.object({ id: addonIdSchema, ...integrationEventsPageShape }))
    .output(z.object({ integrationEvents: z.array(integrationEventSchema) }))
    .query(async ({ ctx, input }) => ({
      integrationEvents: toJson(await listAddonDeliveries(ctx.db, input.id, { limit: input.limit ?? 50, offset: input.offset ?? 0 })),
    })),
};
