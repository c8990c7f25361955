import { createProject, enableEnvironmentInProject, listProjects } from "@vexil/services";
import { z } from "zod";
import { createProjectShape, projectSchema } from "../schemas/project.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Projects"];

export const projectsRouter = {
  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/projects", tags, summary: "List projects" },
      access: "authenticated",
    })
    .input(z.object({}).optional())
    .output(z.object({ version: z.literal(1), projects: z.array(projectSchema) }))
    .query(async ({ ctx }) => ({ version: 1 as const, projects: toJson(await listProjects(ctx.db)) })),

  create: protectedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/admin/projects", tags, summary: "Create a project" },
      access: "ADMIN",
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(z.strictObject(createProjectShape))
    .output(projectSchema)
    .mutation(async ({ ctx, input }) => toJson(await createProject(ctx.db, ctx.principal, input))),

  enableEnvironment: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/projects/{projectId}/environments",
        tags,
        summary: "Enable an environment in a project",
        description:
          "By an Admin or an Owner of the project, as in Unleash. Answers 200 as Unleash does; 409 when the environment is already enabled there.",
      },
      // A project's settings are its Owners' as in Unleash (docs/project-roles.md#what-an-owner-manages).
      access: "UPDATE_PROJECT",
      failures: ["NameExistsError"],
    })
    .input(z.strictObject({ projectId: z.string(), environment: z.string().meta({ description: "Name of an existing environment" }) }))
    .output(z.object({ projectId: z.string(), environment: z.string() }))
    .mutation(async ({ ctx, input }) => {
      await enableEnvironmentInProject(ctx.db, ctx.principal, input);
      return { projectId: input.projectId, environment: input.environment };
    }),
};
