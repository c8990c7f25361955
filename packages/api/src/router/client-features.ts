import { clientFeatureFrom, NotFoundError, renderClientFeatures } from "@vexil/services";
import { z } from "zod";
import { servedFeatures } from "../client-scope.ts";
import { clientFeatureSchema, clientFeaturesSchema } from "../schemas/client-feature.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Client API"];

export const clientFeaturesRouter = {
  // Over REST this path is served by handleClientFeatures (ETag, 304); this procedure documents it and serves /trpc.
  list: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/client/features",
        tags,
        summary: "The features an SDK evaluates, for the token's environment and projects",
        description:
          "Every 200 carries an ETag; a request whose If-None-Match matches it is a 304 with no body. SDKs that send Unleash-Client-Spec >= 4.2.0 get segments at the top and ids in each strategy; older ones get segment constraints inlined.",
      },
      access: "client",
    })
    .input(z.strictObject({ project: z.array(z.string().max(100)).optional(), namePrefix: z.string().max(100).optional() }).optional())
    .output(clientFeaturesSchema)
    .query(async ({ ctx, input }) => {
      const set = await servedFeatures(ctx.deps, ctx.principal);
      const rendered = renderClientFeatures(set, { projects: input?.project, namePrefix: input?.namePrefix, inlineSegmentConstraints: false });
      return JSON.parse(rendered.body.toString("utf8"));
    }),

  get: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/client/features/{featureName}", tags, summary: "One feature an SDK evaluates; 404 outside the token's scope" },
      access: "client",
    })
    .input(z.strictObject({ featureName: z.string() }))
    .output(clientFeatureSchema)
    .query(async ({ ctx, input }) => {
      const feature = clientFeatureFrom(await servedFeatures(ctx.deps, ctx.principal), input.featureName);
      if (!feature) throw new NotFoundError(`There is no feature "${input.featureName}" for this token.`);
      return feature;
    }),
};
