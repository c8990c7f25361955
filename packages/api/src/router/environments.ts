import { createEnvironment, listEnvironments } from "@vexil/services";
import { z } from "zod";
import { createEnvironmentSchema, environmentSchema } from "../schemas/environment.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Environments"];

export const environmentsRouter = {
  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/environments", tags, summary: "List environments" },
      access: "authenticated",
    })
    .input(z.object({}).optional())
    .output(z.object({ version: z.literal(1), environments: z.array(environmentSchema) }))
    .query(async ({ ctx }) => ({ version: 1 as const, environments: toJson(await listEnvironments(ctx.db)) })),

  create: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/environments",
        tags,
        summary: "Create an environment",
        description: "The new environment is enabled in no project; enable it with POST /api/admin/projects/{projectId}/environments.",
      },
      access: "ADMIN",
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(createEnvironmentSchema)
    .output(environmentSchema)
    .mutation(async ({ ctx, input }) => toJson(await createEnvironment(ctx.db, ctx.principal, input))),
};
