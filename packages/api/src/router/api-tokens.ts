import {
  createApiToken,
  createPersonalToken,
  deleteApiToken,
  deletePersonalToken,
  listApiTokens,
  listPersonalTokens,
} from "@vexil/services";
import { z } from "zod";
import { toJson } from "../schemas/to-json.ts";
import { recordIdSchema } from "../schemas/record-id.ts";
import { protectedProcedure } from "../trpc.ts";

const idParam = recordIdSchema("Token id");

const apiTokenSchema = z
  .object({
    id: z.number().int(),
    tokenName: z.string(),
    type: z.enum(["admin", "client", "frontend", "personal", "scim"]),
    projects: z.array(z.string()),
    environment: z.string(),
    expiresAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "ApiToken" });

const createdTokenSchema = apiTokenSchema
  .extend({ secret: z.string().meta({ description: "The whole token; shown only now." }) })
  .meta({ id: "CreatedApiToken" });

export const apiTokensRouter = {
  create: protectedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/admin/api-tokens", tags: ["API tokens"], summary: "Create an API token" },
      access: "ADMIN",
      successStatus: 201,
    })
    .input(
      z.strictObject({
        tokenName: z.string().min(1).max(100),
        type: z
          .enum(["admin", "client", "frontend", "scim"])
          .meta({ description: "`scim` makes an identity provider's token, good for SCIM provisioning (/scim/v2) only" }),
        projects: z.array(z.string().min(1).max(100)).max(100).optional(),
        environment: z.string().min(1).max(100).optional(),
        expiresAt: z.iso.datetime().nullish(),
      }),
    )
    .output(createdTokenSchema)
    .mutation(async ({ ctx, input }) => {
      const token = await createApiToken(ctx.db, ctx.principal, {
        ...input,
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      });
      return toJson(token);
    }),

  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/api-tokens", tags: ["API tokens"], summary: "List API tokens (never their secrets)" },
      access: "ADMIN",
    })
    .input(z.object({}).optional())
    .output(z.object({ tokens: z.array(apiTokenSchema) }))
    .query(async ({ ctx }) => ({ tokens: toJson(await listApiTokens(ctx.db)) })),

  delete: protectedProcedure
    .meta({
      openapi: { method: "DELETE", path: "/api/admin/api-tokens/{id}", tags: ["API tokens"], summary: "Revoke an API token" },
      access: "ADMIN",
    })
    .input(z.object({ id: idParam }))
    .output(apiTokenSchema)
    .mutation(async ({ ctx, input }) => toJson(await deleteApiToken(ctx.db, ctx.principal, input.id))),

  createPersonal: protectedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/admin/user/tokens", tags: ["API tokens"], summary: "Create a personal access token" },
      access: "authenticated",
      successStatus: 201,
    })
    // Unleash's createPatSchema requires expiresAt too.
    .input(z.strictObject({ description: z.string().min(1).max(200), expiresAt: z.iso.datetime({ offset: true }) }))
    .output(createdTokenSchema)
    .mutation(async ({ ctx, input }) => {
      const token = await createPersonalToken(ctx.db, ctx.principal, {
        description: input.description,
        expiresAt: new Date(input.expiresAt),
      });
      return toJson(token);
    }),

  listPersonal: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/user/tokens", tags: ["API tokens"], summary: "List your personal access tokens" },
      access: "authenticated",
    })
    .input(z.object({}).optional())
    .output(z.object({ pats: z.array(apiTokenSchema) }))
    .query(async ({ ctx }) => ({ pats: toJson(await listPersonalTokens(ctx.db, ctx.principal)) })),

  deletePersonal: protectedProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/api/admin/user/tokens/{id}",
        tags: ["API tokens"],
        summary: "Revoke one of your personal access tokens",
      },
      access: "authenticated",
    })
    .input(z.object({ id: idParam }))
    .output(apiTokenSchema)
    .mutation(async ({ ctx, input }) => toJson(await deletePersonalToken(ctx.db, ctx.principal, input.id))),
};
