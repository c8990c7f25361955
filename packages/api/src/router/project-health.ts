import { projectHealthReport } from "@vexil/services";
import { z } from "zod";
import { projectHealthReportSchema } from "../schemas/project-health.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

export const projectHealthRouter = {
  report: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/projects/{projectId}/health-report",
        tags: ["Projects"],
        summary: "A project's health: its stale and potentially stale flags",
        description: "Counts and rating are computed when asked, over the flags that are not archived.",
      },
      access: "authenticated",
    })
    .input(z.strictObject({ projectId: z.string() }))
    .output(projectHealthReportSchema)
    .query(async ({ ctx, input }) => toJson(await projectHealthReport(ctx.db, input.projectId))),
};
