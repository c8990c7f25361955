import { listEnvironments } from "@vexil/services";
import { z } from "zod";
import { protectedProcedure } from "../trpc.ts";
import { environmentSchema } from "../schemas/environment.ts";

export const environmentsRouter = {
  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/environments", tags: ["Environments"], summary: "List environments" },
      access: "authenticated",
    })
    .input(z.object({}))
    .output(z.object({ version: z.literal(1), environments: z.array(environmentSchema) }))
    .query(async ({ ctx }) => {
      const environments = await listEnvironments(ctx.db);
      return {
        version: 1 as const,
        environments: environments.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
      };
    }),
};
