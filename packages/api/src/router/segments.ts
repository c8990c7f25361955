import { createSegment, deleteSegment, getSegment, listSegments, strategiesUsingSegment, updateSegment } from "@vexil/services";
import { z } from "zod";
import { segmentIdSchema, segmentInputShape, segmentSchema, segmentStrategiesSchema } from "../schemas/segment.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Segments"];

export const segmentsRouter = {
  list: protectedProcedure
    .meta({ openapi: { method: "GET", path: "/api/admin/segments", tags, summary: "List segments" }, access: "authenticated" })
    .input(z.object({}).optional())
    .output(z.object({ segments: z.array(segmentSchema) }))
    .query(async ({ ctx }) => ({ segments: toJson(await listSegments(ctx.db)) })),

  create: protectedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/admin/segments", tags, summary: "Create a segment" },
      access: "CREATE_SEGMENT",
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(z.strictObject(segmentInputShape))
    .output(segmentSchema)
    .mutation(async ({ ctx, input }) => toJson(await createSegment(ctx.db, ctx.principal, input))),

  get: protectedProcedure
    .meta({ openapi: { method: "GET", path: "/api/admin/segments/{id}", tags, summary: "Get a segment" }, access: "authenticated" })
    .input(z.strictObject({ id: segmentIdSchema }))
    .output(segmentSchema)
    .query(async ({ ctx, input }) => toJson(await getSegment(ctx.db, input.id))),

  strategies: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/segments/{id}/strategies",
        tags,
        summary: "The strategies that use a segment",
        description:
          "Stored strategies (of archived flags too: they also keep the segment from being deleted), and in changeRequestStrategies those that pending change requests add or edit to use it.",
      },
      access: "authenticated",
    })
    .input(z.strictObject({ id: segmentIdSchema }))
    .output(segmentStrategiesSchema)
    .query(async ({ ctx, input }) => strategiesUsingSegment(ctx.db, input.id)),

  update: protectedProcedure
    .meta({
      openapi: { method: "PUT", path: "/api/admin/segments/{id}", tags, summary: "Replace a segment" },
      access: "UPDATE_SEGMENT",
      failures: ["NameExistsError"],
    })
    .input(z.strictObject({ id: segmentIdSchema, ...segmentInputShape }))
    .output(segmentSchema)
    .mutation(async ({ ctx, input: { id, ...body } }) => toJson(await updateSegment(ctx.db, ctx.principal, id, body))),

  delete: protectedProcedure
    .meta({
      openapi: { method: "DELETE", path: "/api/admin/segments/{id}", tags, summary: "Delete a segment no strategy uses" },
      access: "DELETE_SEGMENT",
      failures: ["ConflictError"],
    })
    .input(z.strictObject({ id: segmentIdSchema }))
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await deleteSegment(ctx.db, ctx.principal, input.id);
      return {};
    }),
};
