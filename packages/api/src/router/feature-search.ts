import { featureSearchQuerySchema, searchFeatures } from "@vexil/services";
import { featureSearchPageSchema } from "../schemas/feature-search.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

export const featureSearchRouter = {
  search: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/search/features",
        tags: ["Search"],
        summary: "Search and filter features",
        description:
          "One page of the features matching every filter given, and their total. Filters are `OPERATOR:value,value` as in Unleash; a filter that cannot be read is a 400 naming it.",
      },
      access: "authenticated",
      // Every filter is read from the query; one that cannot mean anything is a 400 naming it.
      failures: ["ValidationError"],
    })
    .input(featureSearchQuerySchema)
    .output(featureSearchPageSchema)
    .query(async ({ ctx, input }) => toJson(await searchFeatures(ctx.db, input))),
};
