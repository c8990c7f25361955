import { createTagType, deleteTagType, getTagType, listTagTypes, updateTagType, validateTagType } from "@vexil/services";
import { z } from "zod";
import { tagTypeBodySchema, tagTypeChangesShape, tagTypeInputShape, tagTypeSchema } from "../schemas/tag.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Tags"];
const PATH = "/api/admin/tag-types";

export const tagTypesRouter = {
  list: protectedProcedure
    .meta({ openapi: { method: "GET", path: PATH, tags, summary: "List tag types" }, access: "authenticated" })
    .input(z.object({}).optional())
    .output(z.object({ version: z.literal(1), tagTypes: z.array(tagTypeSchema) }))
    .query(async ({ ctx }) => ({ version: 1 as const, tagTypes: await listTagTypes(ctx.db) })),

  create: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: PATH,
        tags,
        summary: "Create a tag type",
        responseHeaders: z.object({ location: z.string().meta({ description: "Path of the new tag type" }) }),
      },
      access: "CREATE_TAG_TYPE",
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(z.strictObject(tagTypeInputShape))
    .output(tagTypeSchema)
    .mutation(async ({ ctx, input }) => {
      const created = await createTagType(ctx.db, ctx.principal, input);
      ctx.setHeader("location", `${PATH}/${encodeURIComponent(created.name)}`);
      return created;
    }),

  validate: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `${PATH}/validate`,
        tags,
        summary: "Check that a tag type could be created",
        description: "400 when the body is not a valid tag type, 409 when its name is taken; nothing is stored.",
      },
      access: "authenticated",
      failures: ["NameExistsError"],
    })
    .input(z.strictObject(tagTypeInputShape))
    .output(z.object({ valid: z.literal(true), tagType: tagTypeBodySchema }))
    .mutation(async ({ ctx, input }) => {
      await validateTagType(ctx.db, input);
      return { valid: true as const, tagType: input };
    }),

  get: protectedProcedure
    .meta({ openapi: { method: "GET", path: `${PATH}/{name}`, tags, summary: "Get a tag type" }, access: "authenticated" })
    .input(z.strictObject({ name: z.string() }))
    .output(z.object({ version: z.literal(1), tagType: tagTypeSchema }))
    .query(async ({ ctx, input }) => ({ version: 1 as const, tagType: await getTagType(ctx.db, input.name) })),

  update: protectedProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: `${PATH}/{name}`,
        tags,
        summary: "Change a tag type's description, icon or colour",
        description: "A field left out keeps its value; null clears it.",
      },
      access: "UPDATE_TAG_TYPE",
    })
    .input(z.strictObject({ name: z.string(), ...tagTypeChangesShape }))
    .output(z.object({}))
    .mutation(async ({ ctx, input: { name, ...changes } }) => {
      await updateTagType(ctx.db, ctx.principal, name, changes);
      return {};
    }),

  delete: protectedProcedure
    .meta({
      openapi: { method: "DELETE", path: `${PATH}/{name}`, tags, summary: "Delete a tag type, its tags, and them from every flag" },
      access: "DELETE_TAG_TYPE",
    })
    .input(z.strictObject({ name: z.string() }))
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await deleteTagType(ctx.db, ctx.principal, input.name);
      return {};
    }),
};
