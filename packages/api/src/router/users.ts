import { changeOwnPassword, changePassword, createUser, currentUser, deleteUser, listUsers } from "@vexil/services";
import { z } from "zod";
import { toJson } from "../schemas/to-json.ts";
import { okSchema, rootRoleSchema, userSchema } from "../schemas/user.ts";
import { recordIdSchema } from "../schemas/record-id.ts";
import { protectedProcedure } from "../trpc.ts";

const idParam = recordIdSchema("User id");

export const usersRouter = {
  create: protectedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/admin/user-admin", tags: ["Users"], summary: "Create a user" },
      access: "ADMIN",
      successStatus: 201,
      failures: ["NameExistsError"],
    })
    .input(
      z.strictObject({
        username: z.string().min(1).max(100).nullish(),
        email: z.email().max(320).nullish(),
        name: z.string().max(200).nullish(),
        password: z.string().nullish(),
        rootRole: rootRoleSchema,
      }),
    )
    .output(userSchema)
    .mutation(async ({ ctx, input }) => toJson(await createUser(ctx.db, ctx.deps.hasher, ctx.principal, input))),

  list: protectedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/admin/user-admin", tags: ["Users"], summary: "List users" },
      access: "ADMIN",
    })
    .input(z.object({}).optional())
    .output(z.object({ users: z.array(userSchema) }))
    .query(async ({ ctx }) => ({ users: toJson(await listUsers(ctx.db)) })),

  delete: protectedProcedure
    .meta({
      openapi: { method: "DELETE", path: "/api/admin/user-admin/{id}", tags: ["Users"], summary: "Delete a user and end their sessions" },
      access: "ADMIN",
      // A user provisioned over SCIM is deleted by its identity provider (docs/scim.md#managed-by-scim).
      failures: ["ConflictError"],
    })
    .input(z.object({ id: idParam }))
    .output(userSchema)
    .mutation(async ({ ctx, input }) => toJson(await deleteUser(ctx.db, ctx.principal, input.id))),

  changePassword: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/user-admin/{id}/change-password",
        tags: ["Users"],
        summary: "Set a user's password and end their sessions",
      },
      access: "ADMIN",
      failures: ["ConflictError"],
    })
    .input(z.strictObject({ id: idParam, password: z.string() }))
    .output(okSchema)
    .mutation(async ({ ctx, input }) => {
      await changePassword(ctx.db, ctx.deps.hasher, ctx.principal, input.id, input.password);
      return {};
    }),

  // Unleash's path; its body has the user (Unleash adds permissions, feedback and splash, which Vexil has no use for).
  current: protectedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/admin/user",
        tags: ["Users"],
        summary: "Who you are",
        description:
          "The user the session or personal access token stands for; the console asks after single sign-on. An API token is no user: 403.",
      },
      access: "authenticated",
      beforePasswordChange: true,
    })
    .input(z.object({}).optional())
    .output(z.object({ user: userSchema }))
    .query(async ({ ctx }) => ({ user: toJson(await currentUser(ctx.db, ctx.principal)) })),

  changeOwnPassword: protectedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/admin/user/change-password",
        tags: ["Users"],
        summary: "Change your own password",
        description:
          "From a session (not a token), with the current password as `oldPassword` (400 when it is wrong). Ends your other sessions and revokes your personal access tokens.",
      },
      access: "authenticated",
      beforePasswordChange: true,
      failures: ["ConflictError"],
    })
    // Unleash's passwordSchema; Vexil requires oldPassword as Unleash's own-password change does.
    .input(z.strictObject({ password: z.string(), oldPassword: z.string(), confirmPassword: z.string().optional() }))
    .output(okSchema)
    .mutation(async ({ ctx, input }) => {
      await changeOwnPassword(ctx.db, ctx.deps.hasher, ctx.principal, input);
      return {};
    }),
};
