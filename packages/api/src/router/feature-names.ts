import { validateFeatureName, validateFeatureNameSchema } from "@vexil/services";
import { z } from "zod";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Features"];

export const featureNamesRouter = {
  validate: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/features/validate",
        tags,
        summary: "Check that a new feature could take a name",
        description:
          "200 when the name is URL-safe and free; 409 when a feature has it, an archived one included; 400 when it is not URL-safe.",
      },
      access: "authenticated",
      failures: ["NameExistsError"],
    })
    .input(validateFeatureNameSchema)
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await validateFeatureName(ctx.db, input);
      return {};
    }),
};
