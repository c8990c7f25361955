import { exportFeatures, importFeatures, validateImport } from "@vexil/services";
import { z } from "zod";
import { exportQueryShape, featuresBatchExportSchema, importShape, importValidationSchema } from "../schemas/features-batch.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Import/Export"];

/** Unleash's features-batch routes: its export document out, and back in (docs/migrate-from-unleash.md). */
export const featuresBatchRouter = {
  export: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/features-batch/export",
        tags,
        summary: "Export feature flags from an environment",
        description:
          "The live flags selected by features (names), tag (type:value) or project, with their strategies, state, variants, tags, segments (id and name) and dependencies in one environment. downloadFile is accepted and changes nothing, as in Unleash. 404 for an unknown environment.",
      },
      failures: ["NotFoundError"],
    })
    .input(exportQueryShape)
    .output(featuresBatchExportSchema)
    .mutation(async ({ ctx, input }) => exportFeatures(ctx.db, input)),

  validate: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/features-batch/validate",
        tags,
        summary: "Validate feature import data",
        description:
          "What an import of the document into the project and environment would meet: errors that would refuse it, warnings, and the permissions the caller lacks, in Unleash's words. Writes nothing.",
      },
      failures: ["NotFoundError"],
    })
    .input(z.strictObject(importShape))
    .output(importValidationSchema)
    .mutation(async ({ ctx, input }) => validateImport(ctx.db, ctx.principal, input)),

  import: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/features-batch/import",
        tags,
        summary: "Import feature flags",
        description:
          "The document's flags into the project and environment, all or nothing: flags created or updated, tags replaced, strategies replaced, variants and state set, dependencies added. Only what differs is written; the same document again changes nothing. Refused to an admin token (400, as in Unleash), and, where the environment has change requests on, to a caller who may not skip them (403).",
      },
      access: "UPDATE_FEATURE",
      // The body names the project: the permission is checked there (docs/project-roles.md#which-routes).
      projectField: "project",
      failures: ["NotFoundError"],
    })
    .input(z.strictObject(importShape))
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await importFeatures(ctx.db, ctx.principal, input);
      return {};
    }),
};
