import { createBanner, deleteBanner, listBanners, setBannerEnabled, updateBanner } from "@vexil/services";
import { z } from "zod";
import { bannerFieldsShape, bannerIdSchema, bannerSchema } from "../schemas/banner.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Banners"];
const WRITE = "UPDATE_INSTANCE_BANNERS" as const;

const toggle = (enabled: boolean) =>
  protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `/api/admin/banners/{id}/${enabled ? "on" : "off"}`,
        tags,
        summary: enabled ? "Show a banner" : "Hide a banner",
      },
      access: WRITE,
    })
    .input(z.strictObject({ id: bannerIdSchema }))
    .output(bannerSchema)
    .mutation(async ({ ctx, input }) => toJson(await setBannerEnabled(ctx.db, ctx.principal, input.id, enabled)));

export const bannersRouter = {
  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/banners", tags, summary: "List banners, newest first" },
      access: "authenticated",
    })
    .input(z.object({}).optional())
    .output(z.object({ banners: z.array(bannerSchema) }))
    .query(async ({ ctx }) => ({ banners: (await listBanners(ctx.db)).map(toJson) })),

  create: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/banners",
        tags,
        summary: "Create a banner",
        responseHeaders: z.object({ location: z.string().meta({ description: "Path of the new banner" }) }),
      },
      access: WRITE,
      successStatus: 201,
    })
    .input(z.strictObject(bannerFieldsShape))
    .output(bannerSchema)
    .mutation(async ({ ctx, input }) => {
      const banner = await createBanner(ctx.db, ctx.principal, input);
      ctx.setHeader("location", `/api/admin/banners/${banner.id}`);
      return toJson(banner);
    }),

  update: protectedProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: "/api/admin/banners/{id}",
        tags,
        summary: "Change a banner",
        description: "A field left out keeps its value; null clears a nullable field. `message` cannot be cleared.",
      },
      access: WRITE,
    })
    .input(z.strictObject({ ...bannerFieldsShape, message: bannerFieldsShape.message.optional(), id: bannerIdSchema }))
    .output(bannerSchema)
    .mutation(async ({ ctx, input: { id, ...changes } }) => toJson(await updateBanner(ctx.db, ctx.principal, id, changes))),

  enable: toggle(true),
  disable: toggle(false),

  delete: protectedProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/api/admin/banners/{id}",
        tags,
        summary: "Delete a banner",
        description: "Answers 200 with the banner as it was before it was deleted.",
      },
      access: WRITE,
    })
    .input(z.strictObject({ id: bannerIdSchema }))
    .output(bannerSchema)
    .mutation(async ({ ctx, input }) => toJson(await deleteBanner(ctx.db, ctx.principal, input.id))),
};
