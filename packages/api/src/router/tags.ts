import { createTag, deleteTag, getTag, listTags, listTagsOfType } from "@vexil/services";
import { z } from "zod";
import { tagInputShape, tagSchema } from "../schemas/tag.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Tags"];
const PATH = "/api/admin/tags";
const tagsOutput = z.object({ version: z.literal(1), tags: z.array(tagSchema) });
const tagOutput = z.object({ version: z.literal(1), tag: tagSchema });

export const tagsRouter = {
  list: protectedProcedure
    .meta({ openapi: { method: "GET", path: PATH, tags, summary: "List tags" }, access: "authenticated" })
    .input(z.object({}).optional())
    .output(tagsOutput)
    .query(async ({ ctx }) => ({ version: 1 as const, tags: await listTags(ctx.db) })),

  // Any authenticated user, as in Unleash (its route asks for no permission).
  create: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: PATH,
        tags,
        summary: "Create a tag",
        description: "The value is trimmed, then 2-50 characters on one line; the type must exist (400 otherwise).",
        responseHeaders: z.object({ location: z.string().meta({ description: "Path of the new tag" }) }),
      },
      access: "authenticated",
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(z.strictObject(tagInputShape))
    .output(tagOutput)
    .mutation(async ({ ctx, input }) => {
      const tag = await createTag(ctx.db, ctx.principal, input);
      ctx.setHeader("location", `${PATH}/${encodeURIComponent(tag.type)}/${encodeURIComponent(tag.value)}`);
      return { version: 1 as const, tag };
    }),

  listOfType: protectedProcedure
    .meta({ openapi: { method: "GET", path: `${PATH}/{type}`, tags, summary: "List the tags of a type" }, access: "authenticated" })
    .input(z.strictObject({ type: z.string() }))
    .output(tagsOutput)
    .query(async ({ ctx, input }) => ({ version: 1 as const, tags: await listTagsOfType(ctx.db, input.type) })),

  get: protectedProcedure
    .meta({ openapi: { method: "GET", path: `${PATH}/{type}/{value}`, tags, summary: "Get a tag" }, access: "authenticated" })
    .input(z.strictObject({ type: z.string(), value: z.string() }))
    .output(tagOutput)
    .query(async ({ ctx, input }) => ({ version: 1 as const, tag: await getTag(ctx.db, input.type, input.value) })),

  delete: protectedProcedure
    .meta({
      openapi: { method: "DELETE", path: `${PATH}/{type}/{value}`, tags, summary: "Delete a tag, and it from every flag" },
      access: "UPDATE_FEATURE",
    })
    .input(z.strictObject({ type: z.string(), value: z.string() }))
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await deleteTag(ctx.db, ctx.principal, input);
      return {};
    }),
};
