import {
  completedInputSchema,
  completeFeature,
  featureLifecycle,
  LIFECYCLE_STAGES,
  lifecycleStageCount,
  uncompleteFeature,
} from "@vexil/services";
import { z } from "zod";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Features"];
const PATH = "/api/admin/projects/{projectId}/features/{featureName}/lifecycle";
const featureShape = { projectId: z.string(), featureName: z.string() };

const stageSchema = z.object({
  stage: z.enum(LIFECYCLE_STAGES),
  status: z.string().optional(),
  enteredStageAt: z.iso.datetime(),
});

export const featureLifecycleRouter = {
  get: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: PATH,
        tags,
        summary: "Get feature lifecycle",
        description: "The lifecycle stages the feature entered, oldest first; `status` is `kept` or `discarded` on `completed`.",
      },
      access: "authenticated",
    })
    .input(z.strictObject(featureShape))
    .output(z.array(stageSchema))
    .query(async ({ ctx, input }) => toJson(await featureLifecycle(ctx.db, input))),

  complete: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `${PATH}/complete`,
        tags,
        summary: "Set feature completed",
        description: "The feature has done its job.",
      },
      access: "UPDATE_FEATURE",
    })
    .input(z.strictObject({ ...featureShape, ...completedInputSchema.shape }))
    .output(z.object({}))
    .mutation(async ({ ctx, input: { projectId, featureName, ...body } }) => {
      await completeFeature(ctx.db, ctx.principal, { projectId, featureName }, body);
      return {};
    }),

  uncomplete: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `${PATH}/uncomplete`,
        tags,
        summary: "Set feature uncompleted",
        description: "The feature is no longer completed.",
      },
      access: "UPDATE_FEATURE",
    })
    .input(z.strictObject(featureShape))
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await uncompleteFeature(ctx.db, ctx.principal, input);
      return {};
    }),

  count: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/lifecycle/count",
        tags,
        summary: "Get all features lifecycle stage count",
        description: "How many features are in each lifecycle stage now.",
      },
      access: "authenticated",
    })
    .input(z.object({}).optional())
    .output(z.object({ initial: z.int(), preLive: z.int(), live: z.int(), completed: z.int(), archived: z.int() }))
    .query(async ({ ctx }) => {
      const { "pre-live": preLive, ...counts } = await lifecycleStageCount(ctx.db);
      return { ...counts, preLive };
    }),
};
