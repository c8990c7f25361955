import {
  createContextField,
  deleteContextField,
  deleteLegalValue,
  getContextField,
  listContextFields,
  strategiesUsingContextField,
  updateContextField,
  upsertLegalValue,
  validateContextFieldName,
} from "@vexil/services";
import { z } from "zod";
import {
  contextFieldChangesShape,
  contextFieldInputShape,
  contextFieldSchema,
  contextFieldStrategiesSchema,
  legalValueShape,
} from "../schemas/context-field.ts";
import { toJson } from "../schemas/to-json.ts";
import { protectedProcedure } from "../trpc.ts";

const tags = ["Context"];
const PATH = "/api/admin/context";
const named = { contextField: z.string() };

// Unleash's context-field API (docs/context-fields.md): reads for every signed-in caller, writes
// for Editors and Admins.
export const contextFieldsRouter = {
  list: protectedProcedure
    .meta({ openapi: { method: "GET", path: PATH, tags, summary: "List context fields" }, access: "authenticated" })
    .input(z.object({}).optional())
    .output(z.array(contextFieldSchema))
    .query(async ({ ctx }) => toJson(await listContextFields(ctx.db))),

  create: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: PATH,
        tags,
        summary: "Create a context field",
        responseHeaders: z.object({ location: z.string().meta({ description: "Path of the new context field" }) }),
      },
      access: "CREATE_CONTEXT_FIELD",
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(z.strictObject(contextFieldInputShape))
    .output(contextFieldSchema)
    .mutation(async ({ ctx, input }) => {
      const created = await createContextField(ctx.db, ctx.principal, input);
      ctx.setHeader("location", `context/${encodeURIComponent(created.name)}`);
      return toJson(created);
    }),

  validate: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `${PATH}/validate`,
        tags,
        summary: "Check that a name could be a new context field's",
        description: "400 when the name is not valid, 409 when it is taken; nothing is stored.",
      },
      access: "UPDATE_CONTEXT_FIELD",
      failures: ["NameExistsError"],
    })
    .input(z.strictObject({ name: z.string() }))
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await validateContextFieldName(ctx.db, input);
      return {};
    }),

  get: protectedProcedure
    .meta({ openapi: { method: "GET", path: `${PATH}/{contextField}`, tags, summary: "Get a context field" }, access: "authenticated" })
    .input(z.strictObject(named))
    .output(contextFieldSchema)
    .query(async ({ ctx, input }) => toJson(await getContextField(ctx.db, input.contextField))),

  strategies: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: `${PATH}/{contextField}/strategies`,
        tags,
        summary: "The strategies of live flags that constrain on a context field",
      },
      access: "authenticated",
    })
    .input(z.strictObject(named))
    .output(contextFieldStrategiesSchema)
    .query(async ({ ctx, input }) => ({ strategies: await strategiesUsingContextField(ctx.db, input.contextField) })),

  update: protectedProcedure
    .meta({
      openapi: {
        method: "PUT",
        path: `${PATH}/{contextField}`,
        tags,
        summary: "Replace a context field's description, stickiness and legal values",
        description:
          "A description, stickiness or legal values left out are cleared, as in Unleash; the sort order changes only when given.",
      },
      access: "UPDATE_CONTEXT_FIELD",
    })
    .input(z.strictObject({ ...named, ...contextFieldChangesShape }))
    .output(z.object({}))
    .mutation(async ({ ctx, input: { contextField, ...changes } }) => {
      await updateContextField(ctx.db, ctx.principal, contextField, changes);
      return {};
    }),

  addLegalValue: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `${PATH}/{contextField}/legal-values`,
        tags,
        summary: "Add a legal value, or replace the one with the same value",
      },
      access: "UPDATE_CONTEXT_FIELD",
    })
    .input(z.strictObject({ ...named, ...legalValueShape }))
    .output(z.object({}))
    .mutation(async ({ ctx, input: { contextField, ...legal } }) => {
      await upsertLegalValue(ctx.db, ctx.principal, contextField, legal);
      return {};
    }),

  deleteLegalValue: protectedProcedure
    .meta({
      openapi: { method: "DELETE", path: `${PATH}/{contextField}/legal-values/{legalValue}`, tags, summary: "Remove a legal value" },
      access: "UPDATE_CONTEXT_FIELD",
    })
    .input(z.strictObject({ ...named, legalValue: z.string() }))
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await deleteLegalValue(ctx.db, ctx.principal, input.contextField, input.legalValue);
      return {};
    }),

  delete: protectedProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: `${PATH}/{contextField}`,
        tags,
        summary: "Delete a context field",
        description: "409 while a strategy of a live flag constrains on it.",
      },
      access: "DELETE_CONTEXT_FIELD",
      failures: ["ConflictError"],
    })
    .input(z.strictObject(named))
    .output(z.object({}))
    .mutation(async ({ ctx, input }) => {
      await deleteContextField(ctx.db, ctx.principal, input.contextField);
      return {};
    }),
};
